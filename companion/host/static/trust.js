// The door: take the join pass from the link's fragment (never sent over plain HTTP),
// try the table's HTTPS page, and open the game at once when this phone trusts it;
// otherwise show the one-time steps.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const origin = document.querySelector('meta[name="tc-origin"]').content;
  const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
  history.replaceState(null, "", location.pathname);  // the pass stays out of the history
  const game = `${origin}/?t=${encodeURIComponent(token)}`;
  $("open").href = game;
  if (!token) { $("checking").hidden = true; $("nolink").hidden = false; return; }
  const steps = () => { $("checking").hidden = true; $("steps").hidden = false; };
  const timer = setTimeout(steps, 4000);
  // An opaque reply is enough: it arrives only over a connection the phone trusts.  A
  // first try can fail on a busy network or a phone just joined to it, so the door tries
  // again for three seconds before it shows the steps (and opens the game if one answers).
  const started = Date.now();
  const attempt = () =>
    fetch(`${origin}/s/app.css`, { mode: "no-cors", cache: "no-store", credentials: "omit" })
      .then(() => { clearTimeout(timer); location.replace(game); })
      .catch(() => {
        if (Date.now() - started < 3000) { setTimeout(attempt, 400); return; }
        clearTimeout(timer);
        steps();
      });
  attempt();
})();
