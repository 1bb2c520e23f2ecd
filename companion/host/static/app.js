// The phone page: renders what the tablet sends and sends back what the player chose or
// what the camera read.  It decides no rule: the buttons, their labels and their groups
// (the phase and the hero the rules give each) come from the tablet.  Every command
// carries this phone's id and a number; unanswered commands are kept and sent again after
// a reconnect (the tablet applies each number once).  When the tablet is away (restarting,
// out of reach) the page keeps trying, waiting longer each time.  All text goes in through
// textContent, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const store = window.localStorage;
  let token = document.querySelector('meta[name="tc-token"]').content;
  const phoneId = store.getItem("tc-phone") || newId();
  store.setItem("tc-phone", phoneId);
  let seq = Number(store.getItem("tc-seq") || 0);
  let acked = Number(store.getItem("tc-acked") || 0);
  let outbox = JSON.parse(store.getItem("tc-outbox") || "[]");
  let ws = null, view = null, refused = false, paused = false, chosen = [];
  let backoff = 0, retryTimer = null, welcomed = false, noticeTx = Number(store.getItem("tc-notice") || 0);
  let waitingKey = null, armedAt = 0;
  const BACKOFF_FIRST = 250, BACKOFF_MOST = 5000, ARM_MS = 600;
  const metrics = { scans: [], decodeMs: [], states: [] };  // states: [rev, wall-clock ms shown]
  window.tcPhone = { metrics, get view() { return view; }, get outbox() { return outbox; },
    get seq() { return seq; }, phoneId, drop: () => ws && ws.close(), hold: false };

  function newId() {
    const bytes = new Uint8Array(8);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function save() {
    store.setItem("tc-seq", String(seq)); store.setItem("tc-acked", String(acked));
    store.setItem("tc-outbox", JSON.stringify(outbox));
  }
  function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : "refused"; }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function myName() { return store.getItem("tc-name") || ""; }
  function myHero() { return store.getItem("tc-hero") || ""; }

  // -- light and dark: the phone's own setting, or the player's pick ------------------
  const THEMES = ["auto", "light", "dark"], THEME_WORDS = { auto: "Auto", light: "Light", dark: "Dark" };
  function applyTheme() {
    const theme = store.getItem("tc-theme") || "auto";
    if (theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.dataset.theme = theme;
    $("theme").textContent = THEME_WORDS[theme];
  }
  $("theme").addEventListener("click", () => {
    const now = store.getItem("tc-theme") || "auto";
    store.setItem("tc-theme", THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]); applyTheme();
  });
  applyTheme();

  // -- a name, asked before joining ----------------------------------------------------
  $("name").value = myName();
  $("name").addEventListener("change", () => {
    const name = $("name").value.trim();
    if (name) { store.setItem("tc-name", name); seat(); } else $("name").value = myName();
  });
  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return;
    store.setItem("tc-name", name); $("name").value = name; $("join").hidden = true; hello();
  });
  function askName() { $("join").hidden = false; $("join-name").focus(); }

  // -- the connection: kept up with backoff, whatever happens to the tablet -----------
  function connect() {
    if (refused || paused) return;
    clearTimeout(retryTimer); retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws?t=${encodeURIComponent(token)}`);
    ws = socket;
    socket.onopen = () => { if (myName()) hello(); else { askName(); showLink("name?", false); } };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      if (socket !== ws) return;
      welcomed = false; setEnabled();
      if (refused) { showLink("not let in", false); return; }
      if (paused) { showLink("away", false); return; }
      // First retry at once-ish, then longer each time, with a little jitter so eight
      // phones do not knock at the same instant when the tablet comes back.
      backoff = backoff ? Math.min(backoff * 2, BACKOFF_MOST) : BACKOFF_FIRST;
      const wait = backoff * (0.75 + Math.random() * 0.5);
      showLink(`reconnecting in ${Math.max(1, Math.round(wait / 1000))} s…`, false);
      retryTimer = setTimeout(connect, wait);
    };
  }
  function showLink(text, on) { $("link").textContent = text; $("link").className = on ? "link on" : "link off"; }
  function hello() {
    if (ws && ws.readyState === 1 && myName()) ws.send(JSON.stringify({ t: "hello", phone: phoneId,
      name: myName(), hero: myHero(), rev: view ? view.rev : null }));
  }
  function seat() {
    // a new name or hero, kept with this phone's seat on the tablet
    if (ws && ws.readyState === 1 && welcomed) ws.send(JSON.stringify({ t: "seat", name: myName(), hero: myHero() }));
  }
  function flush() {
    if (!ws || ws.readyState !== 1 || !welcomed || window.tcPhone.hold) return;
    for (const cmd of outbox) ws.send(JSON.stringify(cmd));
  }
  const retryPause = new Map();  // seq -> the last pause before sending it again (ms)
  const echoes = new Map();  // seq -> the words the player is shown for it ("You rolled 7 for ...")
  function send(doing, args, extra) {
    seq += 1;
    const { echo, ...more } = extra || {};
    const cmd = Object.assign({ t: "cmd", phone: phoneId, seq, rev: view ? view.rev : null,
      do: doing, with: args || {} }, more);
    if (echo) echoes.set(seq, echo);
    outbox.push(cmd); save();
    if (ws && ws.readyState === 1 && welcomed && !window.tcPhone.hold) ws.send(JSON.stringify(cmd));
    setEnabled();
    return cmd;
  }
  window.tcPhone.send = send;
  window.tcPhone.flush = flush;

  function receive(msg) {
    if (msg.t === "welcome") welcome(msg);
    else if (msg.t === "state") { view = msg; render(); metrics.states.push([msg.rev, Date.now()]); }
    else if (msg.t === "ack") ack(msg);
    else if (msg.t === "refused") {
      refused = true; say(msg.text, false); showLink("not let in", false);
      // nothing here can be done any more: no button may look tappable
      document.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    } else if (msg.t === "error") say(msg.text, false);
  }

  function welcome(msg) {
    token = msg.token; welcomed = true; backoff = 0;
    showLink("joined", true);
    // a reload later uses this phone's own pass, not the join link that soon expires
    history.replaceState(null, "", `?t=${encodeURIComponent(token)}`);
    if (msg.name && msg.name !== myName()) { store.setItem("tc-name", msg.name); $("name").value = msg.name; }
    if (msg.hero) store.setItem("tc-hero", msg.hero);  // the seat's hero, kept by the tablet
    const before = store.getItem("tc-table");
    if (msg.table) store.setItem("tc-table", msg.table);
    if (before && msg.table && before !== msg.table && outbox.length) {
      // made for another game hosted at this address: they mean nothing here
      say(`${outbox.length} action(s) made for another game were not sent.`, false);
      outbox = [];
    } else if (msg.seq < acked && outbox.length) {
      // The tablet does not remember this phone's numbers (a new table, or its record was
      // lost): whether these were applied cannot be known, so none is sent again.
      say(`The tablet does not remember ${outbox.length} unanswered action(s) from this phone: check the table and do them again if they are missing.`, false);
      outbox = [];
    }
    seq = Math.max(seq, msg.seq);
    acked = Math.max(acked, Math.min(msg.seq, seq));
    // what the tablet already handled is done; the rest is sent once more, in order
    const done = new Set(msg.done || []);
    outbox = outbox.filter((c) => c.seq > msg.seq && !done.has(c.seq)); save(); flush(); setEnabled();
    if (outbox.length) say(`Back at the table: sending ${outbox.length} action(s) again…`, true);
  }

  function ack(msg) {
    const cmd = outbox.find((c) => c.seq === msg.seq);
    if (msg.retry) {
      // too fast: the number is not used up; the same command goes again shortly
      // not run, number not used up: the very same message again after a pause, 1 s
      // doubling to 8 s
      say(msg.text, false); metrics.retries = (metrics.retries || 0) + 1;
      const pause = Math.min((retryPause.get(msg.seq) || 500) * 2, 8000);
      retryPause.set(msg.seq, pause);
      setTimeout(() => { if (cmd && outbox.includes(cmd) && ws && ws.readyState === 1 && welcomed) ws.send(JSON.stringify(cmd)); }, pause);
      return;
    }
    outbox = outbox.filter((c) => c.seq !== msg.seq); retryPause.delete(msg.seq);
    if (typeof msg.seq === "number") acked = Math.max(acked, msg.seq);
    save();
    const echo = echoes.get(msg.seq); echoes.delete(msg.seq);
    // an answer is echoed in the page's own words (who and why); other replies add the tablet's
    const said = !echo || !msg.ok ? msg.text : cmd && cmd.do === "answer" ? `${echo}.` : `${echo}. ${msg.text}`;
    say(said, msg.ok);
    if (cmd && cmd.do === "scan") $("scan-state").textContent = scanning ? "Hold a card's label up to the camera." : "";
    const pending = metrics.scans.find((s) => s.seq === msg.seq);
    if (pending) { pending.ack = performance.now(); pending.ackRev = msg.rev; }
    setEnabled();
  }

  // -- rendering ---------------------------------------------------------------------
  function render() {
    $("game").textContent = view.summary ? `${view.game}: ${view.summary}` : view.game;
    renderNotice(view.notice);
    renderHero();
    renderWaiting(view.waiting);
    const r = view.result;
    $("result").hidden = !r;
    if (r) {
      $("result-title").textContent = r.title;
      $("result-lines").replaceChildren(...r.lines.map((line) => el("li", line)));
    }
    renderActions(view.actions || []);
    setEnabled();
    for (const s of metrics.scans) if (s.ack && !s.shown && view.rev >= s.ackRev) s.shown = performance.now();
  }

  function renderNotice(notice) {
    // The tablet undid or corrected something: said once in words, until the next move.
    if (!notice) { $("notice").hidden = true; return; }
    $("notice").textContent = notice.text; $("notice").hidden = false;
    if (notice.tx !== noticeTx) { noticeTx = notice.tx; store.setItem("tc-notice", String(noticeTx)); }
  }

  function answering() { return outbox.some((c) => c.do === "answer"); }
  function setEnabled() {
    // A keypad is live only once its request has been on screen a moment and no answer
    // of this phone is still on its way: a double tap never answers two requests.
    // Taps while the tablet is away are kept and sent when it is back.
    const live = !refused && !answering() && performance.now() >= armedAt;
    $("waiting").classList.toggle("sent", answering());
    for (const b of document.querySelectorAll("#keypad button, #options button")) b.disabled = !live;
    for (const b of document.querySelectorAll("#actions button, #undo")) b.disabled = refused;
  }

  function renderWaiting(w) {
    $("waiting").hidden = !w;
    $("keypad").replaceChildren(); $("options").replaceChildren();
    if (!w) { chosen = []; waitingKey = null; $("waiting-chosen").textContent = ""; return; }
    if (w.key !== waitingKey) {
      // a new request: flash the card and hold the keys a moment, so a second tap meant
      // for the last roll cannot land on this one
      chosen = []; waitingKey = w.key; armedAt = performance.now() + ARM_MS;
      setTimeout(setEnabled, ARM_MS + 20);
      const card = $("waiting"); card.classList.remove("fresh"); void card.offsetWidth; card.classList.add("fresh");
    }
    $("waiting-who").textContent = w.kind === "dice" ? `Roll ${w.count > 1 ? w.count + " × " : ""}${w.die}` : `Draw: ${w.deck}`;
    $("waiting-why").textContent = w.who ? `${w.who}: ${w.why}` : w.why;
    $("waiting-chosen").textContent = chosen.map((v) => label(w, v)).join("  ");
    $("dice-photo-label").hidden = w.kind !== "dice";
    if (w.key !== photoKey) { photoKey = w.key; $("dice-photo-state").textContent = ""; }
    if (w.kind === "dice") {
      for (const f of w.faces) {
        const b = el("button", f.label); b.type = "button"; b.dataset.value = String(f.value);
        b.addEventListener("click", () => pick(w, f.value)); $("keypad").append(b);
      }
    } else {
      for (const o of w.options) {
        const b = el("button", o.name); b.type = "button"; b.dataset.card = o.card;
        b.addEventListener("click", () => answer(w, o.card, `You chose ${o.name} for ${purpose(w)}`));
        $("options").append(b);
      }
    }
  }
  // A photo of the dice for the waiting roll (issue 28): the tablet reads it and answers,
  // or shows its unsure dice to the table.  Sent at most 1600 px across as a JPEG.
  let photoKey = null;
  async function sendDicePhoto(file) {
    const state = $("dice-photo-state");
    state.textContent = "Sending the photo to the tablet…";
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise((r) => canvas.toBlob(r, "image/jpeg", 0.9));
      const reply = await fetch(`dice-photo?t=${encodeURIComponent(token)}`, { method: "POST", body: blob, headers: { "Content-Type": "image/jpeg" } });
      const said = await reply.json();
      // said where the player looks: an answered roll's card closes at once
      state.textContent = said.text; state.className = said.ok ? "ok" : "refused"; say(said.text, said.ok);
    } catch (e) {
      state.textContent = "The photo did not reach the tablet: try again."; state.className = "refused";
    }
  }
  $("dice-photo").addEventListener("change", () => {
    const file = $("dice-photo").files[0];
    $("dice-photo").value = "";
    if (file) sendDicePhoto(file);
  });
  function purpose(w) { return w.who ? `${w.who}, ${w.why}` : w.why; }
  function label(w, v) { const f = w.faces.find((x) => x.value === v); return f ? f.label : String(v); }
  function pick(w, value) {
    if (answering() || w.key !== waitingKey) return;
    chosen.push(value);
    $("waiting-chosen").textContent = chosen.map((v) => label(w, v)).join("  ");
    if (chosen.length >= w.count) {
      const values = chosen; chosen = [];
      answer(w, values, `You rolled ${values.map((v) => label(w, v)).join(" + ")} for ${purpose(w)}`);
    }
  }
  function answer(w, values, echo) {
    if (answering()) return;
    say(`${echo}: sending…`, true);
    send("answer", { values }, { waiting: w.key, echo });
  }

  function heroName(id) { const h = (view.heroes || []).find((x) => x.id === id); return h ? h.name : ""; }
  function renderActions(acts) {
    // The rules' own grouping: the next step first, this phone's hero's actions, then each
    // phase the rules declare, then the other heroes'; short lists stay flat.
    const box = $("actions");
    box.hidden = acts.length === 0;
    const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.group));
    const seenBefore = box.dataset.seen === "1";
    const button = (a) => {
      const b = el("button", a.label, a.primary ? "primary" : ""); b.type = "button";
      b.addEventListener("click", () => send(a.do, a.with, { echo: `You chose: ${a.label}` })); return b;
    };
    if (acts.length <= 6) {
      const flat = el("div", undefined, "card group-buttons"); flat.id = "next";
      flat.append(...acts.map(button)); box.replaceChildren(flat); return;
    }
    const mine = myHero() || ((view.heroes || [])[0] || {}).id;
    const groups = new Map();
    const add = (key, title, a) => { if (!groups.has(key)) groups.set(key, { title, acts: [] }); groups.get(key).acts.push(a); };
    for (const a of acts) {
      if (a.hero) add(`hero:${a.hero}`, heroName(a.hero) || "A hero", a);
      else add(`phase:${a.phase || ""}`, phaseTitle(a.phase), a);
    }
    const order = [...groups.keys()].sort((x, y) => rank(x) - rank(y));
    function rank(key) {
      if (key === `hero:${mine}`) return 0;
      if (key.startsWith("phase:")) return 1 + [...groups.keys()].indexOf(key) / 1000;
      return 2 + [...groups.keys()].indexOf(key) / 1000;
    }
    const next = acts.filter((a) => a.primary);
    const parts = [];
    if (next.length) { const n = el("div", undefined, "card group-buttons"); n.id = "next"; n.append(...next.map(button)); parts.push(n); }
    for (const key of order) {
      const g = groups.get(key);
      const d = el("details", undefined, "group"); d.dataset.group = key;
      const s = el("summary", g.title); s.append(el("span", String(g.acts.length), "count")); d.append(s);
      const inner = el("div", undefined, "group-buttons");
      if (key.startsWith("hero:")) {
        // within a hero, by phase as the rules declare them
        const phases = new Map();
        for (const a of g.acts) { const p = a.phase || ""; if (!phases.has(p)) phases.set(p, []); phases.get(p).push(a); }
        for (const [p, list] of phases) { if (p) inner.append(el("div", phaseTitle(p), "phase")); inner.append(...list.map(button)); }
      } else inner.append(...g.acts.map(button));
      d.append(inner);
      d.open = seenBefore ? open.has(key) : key === `hero:${mine}`;
      parts.push(d);
    }
    box.replaceChildren(...parts); box.dataset.seen = "1";
  }
  function phaseTitle(phase) {
    if (!phase) return "Other";
    return phase.charAt(0).toUpperCase() + phase.slice(1);
  }

  function renderHero() {
    const heroes = view.heroes || [];
    $("hero").hidden = heroes.length === 0;
    if (!heroes.length) return;
    let mine = myHero();
    if (!heroes.some((h) => h.id === mine)) { mine = heroes[0].id; }
    const pickEl = $("hero-pick");
    pickEl.replaceChildren(...heroes.map((h) => { const o = el("option", h.name); o.value = h.id; o.selected = h.id === mine; return o; }));
    const hero = heroes.find((h) => h.id === mine);
    $("hero-name").textContent = hero.name;
    // the first numbers at a glance, the rest folded (a HEXplore hero has twenty-odd)
    const pair = (f) => [el("dt", f.label), el("dd", f.value)];
    $("hero-facts").replaceChildren(...hero.facts.slice(0, 8).flatMap(pair));
    $("hero-more").hidden = hero.facts.length <= 8;
    $("hero-more-facts").replaceChildren(...hero.facts.slice(8).flatMap(pair));
  }
  $("hero-pick").addEventListener("change", () => {
    store.setItem("tc-hero", $("hero-pick").value); seat();  // the tablet keeps it with the seat
    $("actions").dataset.seen = "";  // the new hero's actions open, the rest folded
    if (view) render();
  });
  $("undo").addEventListener("click", () => send("undo", {}, { echo: "You asked to undo your last action" }));

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
    if (!text || !fresh || !welcomed) return;
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
  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
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
  if (!myName()) askName();
  connect();
})();
