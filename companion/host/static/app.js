// The phone page: renders what the tablet sends and sends back what the player chose or
// what the camera read.  It decides no rule.  Every command carries this phone's id and
// a number; unanswered commands are kept and sent again after a reconnect, and the tablet
// applies each number once.  All text goes in through textContent, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const store = window.localStorage;
  let token = document.querySelector('meta[name="tc-token"]').content;
  const phoneId = store.getItem("tc-phone") || newId();
  store.setItem("tc-phone", phoneId);
  let seq = Number(store.getItem("tc-seq") || 0);
  let outbox = JSON.parse(store.getItem("tc-outbox") || "[]");
  let ws = null, view = null, refused = false, paused = false, backoff = 300, chosen = [];
  const metrics = { scans: [], decodeMs: [] };
  window.tcPhone = { metrics, get view() { return view; }, get outbox() { return outbox; },
    get seq() { return seq; }, phoneId, drop: () => ws && ws.close(), hold: false };

  function newId() {
    const bytes = new Uint8Array(8);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function save() { store.setItem("tc-seq", String(seq)); store.setItem("tc-outbox", JSON.stringify(outbox)); }
  function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : "refused"; }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

  $("name").value = store.getItem("tc-name") || "";
  $("name").addEventListener("change", () => { store.setItem("tc-name", $("name").value); hello(); });

  function connect() {
    if (refused || paused) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws?t=${encodeURIComponent(token)}`);
    ws.onopen = () => { backoff = 300; hello(); };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = () => {
      $("link").textContent = refused ? "not let in" : "reconnecting…"; $("link").className = "link off";
      if (!refused && !paused) setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 3000);
    };
  }
  function hello() {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ t: "hello", phone: phoneId,
      name: $("name").value || "", rev: view ? view.rev : null }));
  }
  function flush() {
    if (!ws || ws.readyState !== 1 || window.tcPhone.hold) return;
    for (const cmd of outbox) ws.send(JSON.stringify(cmd));
  }
  function send(doing, args, extra) {
    seq += 1;
    const cmd = Object.assign({ t: "cmd", phone: phoneId, seq, rev: view ? view.rev : null,
      do: doing, with: args || {} }, extra || {});
    outbox.push(cmd); save();
    if (ws && ws.readyState === 1 && !window.tcPhone.hold) ws.send(JSON.stringify(cmd));
    return cmd;
  }
  window.tcPhone.send = send;
  window.tcPhone.flush = flush;

  function receive(msg) {
    if (msg.t === "welcome") {
      token = msg.token; $("link").textContent = "joined"; $("link").className = "link on";
      // a reload later uses this phone's own pass, not the join link that soon expires
      history.replaceState(null, "", `?t=${encodeURIComponent(token)}`);
      if (!$("name").value) { $("name").value = msg.name; }
      const before = store.getItem("tc-table");
      if (before && before !== msg.table && outbox.length) {
        // Kept from before the tablet restarted: whether they were applied is unknown here,
        // so none is sent again; the player checks the table and does them again.
        say(`The tablet restarted: ${outbox.length} unsent action(s) dropped. Check and redo them.`, false);
        outbox = [];
      }
      store.setItem("tc-table", msg.table);
      seq = Math.max(seq, msg.seq);
      outbox = outbox.filter((c) => c.seq > msg.seq); save(); flush();
    } else if (msg.t === "state") {
      view = msg; render();
    } else if (msg.t === "ack") {
      outbox = outbox.filter((c) => c.seq !== msg.seq); save();
      if (!msg.retry) say(msg.text, msg.ok);
      else setTimeout(flush, 250);
      const pending = metrics.scans.find((s) => s.seq === msg.seq);
      if (pending) { pending.ack = performance.now(); pending.ackRev = msg.rev; }
    } else if (msg.t === "refused") {
      refused = true; say(msg.text, false); $("link").textContent = "not let in";
    } else if (msg.t === "error") {
      say(msg.text, false);
    }
  }

  function render() {
    $("game").textContent = view.summary ? `${view.game}: ${view.summary}` : view.game;
    renderWaiting(view.waiting);
    const r = view.result;
    $("result").hidden = !r;
    if (r) {
      $("result-title").textContent = r.title;
      $("result-lines").replaceChildren(...r.lines.map((line) => el("li", line)));
    }
    const acts = view.actions || [];
    $("actions").hidden = acts.length === 0;
    $("actions").replaceChildren(...acts.map((a) => {
      const b = el("button", a.label, a.primary ? "primary" : "");
      b.type = "button"; b.addEventListener("click", () => send(a.do, a.with)); return b;
    }));
    renderHero();
    for (const s of metrics.scans) if (s.ack && !s.shown && view.rev >= s.ackRev) s.shown = performance.now();
  }

  function renderWaiting(w) {
    $("waiting").hidden = !w;
    $("keypad").replaceChildren(); $("options").replaceChildren();
    if (!w) { chosen = []; $("waiting-chosen").textContent = ""; return; }
    if (w.key !== renderWaiting.key) { chosen = []; renderWaiting.key = w.key; }
    $("waiting-who").textContent = w.kind === "dice" ? `Roll ${w.count > 1 ? w.count + " × " : ""}${w.die}` : `Draw: ${w.deck}`;
    $("waiting-why").textContent = w.who ? `${w.who}: ${w.why}` : w.why;
    $("waiting-chosen").textContent = chosen.map((v) => label(w, v)).join("  ");
    if (w.kind === "dice") {
      for (const f of w.faces) {
        const b = el("button", f.label); b.type = "button"; b.dataset.value = String(f.value);
        b.addEventListener("click", () => pick(w, f.value)); $("keypad").append(b);
      }
    } else {
      for (const o of w.options) {
        const b = el("button", o.name); b.type = "button"; b.dataset.card = o.card;
        b.addEventListener("click", () => send("answer", { values: o.card }, { waiting: w.key }));
        $("options").append(b);
      }
    }
  }
  function label(w, v) { const f = w.faces.find((x) => x.value === v); return f ? f.label : String(v); }
  function pick(w, value) {
    chosen.push(value);
    $("waiting-chosen").textContent = chosen.map((v) => label(w, v)).join("  ");
    if (chosen.length >= w.count) { const values = chosen; chosen = []; send("answer", { values }, { waiting: w.key }); }
  }

  function renderHero() {
    const heroes = view.heroes || [];
    $("hero").hidden = heroes.length === 0;
    const pickEl = $("hero-pick");
    const mine = store.getItem("tc-hero") || (heroes[0] && heroes[0].id);
    pickEl.replaceChildren(...heroes.map((h) => { const o = el("option", h.name); o.value = h.id; o.selected = h.id === mine; return o; }));
    const hero = heroes.find((h) => h.id === mine) || heroes[0];
    const facts = hero ? hero.facts.flatMap((f) => [el("dt", f.label), el("dd", f.value)]) : [];
    $("hero-facts").replaceChildren(...facts);
  }
  $("hero-pick").addEventListener("change", () => { store.setItem("tc-hero", $("hero-pick").value); renderHero(); });
  $("undo").addEventListener("click", () => send("undo", {}));

  // -- scanning: decoded here with zxing-cpp's WebAssembly build; only the text is sent --
  // Fetched on the first scan, with the phone's own pass by then (the join link's expires).
  const wasmUrl = () => `s/zxing_reader.wasm?t=${encodeURIComponent(token)}`;
  window.ZXingWASM.prepareZXingModule({ overrides: { locateFile: wasmUrl } });
  let lastText = "", lastAsking = "", lastAt = 0, scanning = false;
  async function decode(source) {
    const t0 = performance.now();
    const found = await window.ZXingWASM.readBarcodes(source, { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 1 });
    metrics.decodeMs.push(performance.now() - t0);
    return found.length && found[0].isValid ? found[0].text : "";
  }
  function seen(text) {
    // A card held in view is sent once for what is waiting now; again only when the
    // tablet asks something new, or after a few seconds with nothing waiting.
    const now = performance.now();
    const asking = view && view.waiting ? view.waiting.key : "";
    const fresh = text !== lastText || now - lastAt >= 4000 || (asking && asking !== lastAsking);
    if (!text || !fresh) return;
    lastText = text; lastAsking = asking; lastAt = now;
    $("scan-state").textContent = "Card read: sending to the tablet…";
    const cmd = send("scan", { text });
    metrics.scans.push({ seq: cmd.seq, rev: cmd.rev, read: now });
  }
  async function startCamera() {
    const video = $("camera");
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    video.srcObject = stream; video.hidden = false; await video.play();
    scanning = true; $("scan-start").textContent = "Stop scanning";
    $("scan-state").textContent = "Hold a card's label up to the camera.";
    const canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    while (scanning) {
      if (video.videoWidth) {
        canvas.width = video.videoWidth; canvas.height = video.videoHeight;
        ctx.drawImage(video, 0, 0);
        try { seen(await decode(ctx.getImageData(0, 0, canvas.width, canvas.height))); }
        catch (e) { $("scan-state").textContent = "The card reader could not start on this phone."; }
      }
      await new Promise((r) => setTimeout(r, 120));
    }
    stream.getTracks().forEach((t) => t.stop()); video.hidden = true;
    $("scan-start").textContent = "Scan a card"; $("scan-state").textContent = "";
  }
  if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    $("scan-start").addEventListener("click", () => {
      if (scanning) { scanning = false; return; }
      startCamera().catch(() => { $("scan-state").textContent = "No camera: allow the camera, or take a photo instead."; $("photo-label").hidden = false; });
    });
  } else {
    // Plain http on a LAN address gives no live camera; a photo from the camera app works.
    $("scan-start").hidden = true; $("photo-label").hidden = false;
  }
  $("photo").addEventListener("change", async () => {
    const file = $("photo").files[0];
    if (!file) return;
    // A phone's photo is 12 megapixels or so: read at most 1600 px across, which is quick
    // and still several pixels to each square of a label's code.
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const text = await decode(ctx.getImageData(0, 0, canvas.width, canvas.height));
    if (text) seen(text); else $("scan-state").textContent = "No card label found in that photo: try again closer.";
  });
  window.tcPhone.startCamera = () => startCamera();
  window.tcPhone.stopCamera = () => { scanning = false; };
  // Out of reach (a phone in a pocket, a tunnel): used by the tests to go away and come back.
  window.tcPhone.pause = () => { paused = true; if (ws) ws.close(); };
  window.tcPhone.resume = () => { paused = false; connect(); };
  connect();
})();
