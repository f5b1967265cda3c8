// Mastermind on the page.
"use strict";

(function () {
  const {
    $, api, newGame, move, forget, sleep, setStatus, el, arrowKeys, has, boardStatus, whoStarts,
  } = window.boardkit;

  // --- Mastermind ---------------------------------------------------------------

  const COLOURS = ["red", "green", "yellow", "blue", "magenta", "cyan"];
  const mm = { id: null, state: null, busy: false, pegs: [], slot: 0, solving: false };
  const letter = (i) => String.fromCharCode(65 + i);
  const colourOf = (ch) => ch.charCodeAt(0) - 65;

  function peg(colour, extra) {
    const node = el("span", { className: "peg c" + colour + (extra ? " " + extra : ""), textContent: letter(colour) });
    node.setAttribute("aria-label", letter(colour) + " " + COLOURS[colour]);
    node.setAttribute("role", "img");
    return node;
  }

  function drawSlots() {
    const s = mm.state;
    const slots = $("mastermind-slots");
    // Redrawn slots keep the keyboard's place.
    const hadFocus = slots.contains(document.activeElement);
    slots.replaceChildren();
    const pegs = s ? s.pegs : 4;
    mm.pegs.forEach((colour, i) => {
      const slot = el("button", { type: "button", className: "slot" + (colour === null ? " empty" : " c" + colour) });
      slot.textContent = colour === null ? "?" : letter(colour);
      slot.tabIndex = i === mm.slot ? 0 : -1;
      slot.setAttribute("aria-pressed", String(i === mm.slot));
      slot.setAttribute("aria-label", "Slot " + (i + 1) + " of " + pegs + ": " +
        (colour === null ? "empty" : letter(colour) + " " + COLOURS[colour]));
      slot.dataset.slot = i;
      slot.onclick = () => { mm.slot = i; drawSlots(); slots.children[i].focus(); };
      slot.onkeydown = (event) => {
        const step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
        if (step === undefined) return;
        event.preventDefault();
        const count = s ? s.colors : 6;
        const now = mm.pegs[i];
        mm.pegs[i] = now === null ? (step > 0 ? 0 : count - 1) : (now + step + count) % count;
        drawSlots();
      };
      slots.append(slot);
    });
    arrowKeys(slots, pegs, (i) => { mm.slot = i; drawSlots(); });
    if (hadFocus && slots.children[mm.slot]) slots.children[mm.slot].focus();
    $("mastermind-submit").disabled = !s || s.over || mm.busy || mm.pegs.some((p) => p === null);
  }

  function pick(colour) {
    if (!mm.state || mm.state.over) return;
    mm.pegs[mm.slot] = colour;
    const empty = mm.pegs.findIndex((p) => p === null);
    mm.slot = empty >= 0 ? empty : mm.slot;
    drawSlots();
  }

  function drawPalette() {
    const palette = $("mastermind-palette");
    palette.replaceChildren();
    const count = mm.state ? mm.state.colors : 6;
    for (let i = 0; i < count; i++) {
      const button = el("button", { type: "button", className: "colour c" + i, textContent: letter(i) });
      button.setAttribute("aria-label", "Colour " + letter(i) + ", " + COLOURS[i]);
      button.dataset.colour = i;
      button.onclick = () => pick(i);
      palette.append(button);
    }
  }

  function drawMastermind() {
    const s = mm.state;
    const rows = $("mastermind-rows");
    rows.replaceChildren();
    $("mastermind-secret").replaceChildren();
    drawPalette();
    drawSlots();
    // Once a game is over, the button starts a new one for the computer.
    $("mastermind-solve").disabled = mm.solving;
    if (!s) return;
    for (let t = 0; t < s.turns; t++) {
      const g = s.guesses[t];
      const row = el("li", { className: "mm-row" + (g ? "" : " future") });
      row.append(el("span", { className: "turn", textContent: String(t + 1) }));
      const pegs = el("span", { className: "pegs" });
      if (g) {
        for (const ch of g.guess) pegs.append(peg(colourOf(ch)));
        row.setAttribute("aria-label", "Guess " + (t + 1) + (g.by_computer ? " (computer)" : "") + ": " +
          g.guess + ", " + g.black + " black, " + g.white + " white");
        if (g.by_computer) row.classList.add("by-computer");
      } else {
        for (let i = 0; i < s.pegs; i++) pegs.append(el("span", { className: "peg blank" }));
      }
      row.append(pegs);
      const keys = el("span", { className: "keys" });
      const feedback = el("span", { className: "feedback" });
      if (g) {
        for (let i = 0; i < g.black; i++) keys.append(el("span", { className: "key black" }));
        for (let i = 0; i < g.white; i++) keys.append(el("span", { className: "key white" }));
        feedback.textContent = g.black + " black, " + g.white + " white";
      }
      row.append(keys, feedback);
      rows.append(row);
    }
    let text;
    if (s.over) {
      const secret = $("mastermind-secret");
      secret.append(el("span", { className: "label", textContent: "Secret: " }));
      const pegs = el("span", { className: "pegs", id: "mastermind-secret-code" });
      for (const ch of s.secret) pegs.append(peg(colourOf(ch)));
      pegs.dataset.code = s.secret;
      secret.append(pegs, el("span", { className: "code", textContent: " " + s.secret }));
      secret.classList.toggle("won", s.won);
      text = s.result + (s.won ? ": found in " + s.guesses.length + " guesses." : ". The secret was " + s.secret + ".");
    } else {
      const left = s.turns - s.guesses.length;
      const last = s.guesses[s.guesses.length - 1];
      text = (last ? "Last guess " + last.guess + ": " + last.black + " black, " + last.white + " white. " : "") +
        left + " guess" + (left === 1 ? "" : "es") + " left.";
    }
    setStatus("mastermind", text);
  }

  function resetCompose() {
    const pegs = mm.state ? mm.state.pegs : 4;
    mm.pegs = new Array(pegs).fill(null);
    mm.slot = 0;
  }

  async function startMastermind() {
    forget(mm.id);
    mm.id = null;
    mm.busy = true;
    setStatus("mastermind", "Starting…");
    try {
      mm.state = await newGame({ game: "mastermind" });
      mm.id = mm.state.id;
      resetCompose();
      drawMastermind();
    } catch (e) {
      setStatus("mastermind", "No game: " + e.message);
    } finally {
      mm.busy = false;
    }
  }

  $("mastermind-setup").onsubmit = (event) => {
    event.preventDefault();
    if (!mm.solving) startMastermind();
  };

  $("mastermind-submit").onclick = async () => {
    if (!mm.state || mm.busy || mm.state.over) return;
    if (mm.pegs.some((p) => p === null)) return setStatus("mastermind", "Give every slot a colour first.");
    mm.busy = true;
    try {
      mm.state = await move(mm.id, { guess: mm.pegs.map(letter).join("") });
      resetCompose();
    } catch (e) {
      setStatus("mastermind", "Not played: " + e.message);
      return;
    } finally {
      mm.busy = false;
    }
    drawMastermind();
  };

  $("mastermind-solve").onclick = async () => {
    if (mm.solving) return;
    if (!mm.state || mm.state.over) await startMastermind();
    if (!mm.state) return;
    mm.solving = true;
    $("mastermind-solve").disabled = true;
    try {
      while (!mm.state.over) {
        setStatus("mastermind", "The computer is thinking…");
        mm.state = await api("POST", "/api/games/" + mm.id + "/codebreaker");
        drawMastermind();
        if (!mm.state.over) await sleep(350);
      }
    } catch (e) {
      setStatus("mastermind", "The computer stopped: " + e.message);
    } finally {
      mm.solving = false;
      drawMastermind();
    }
  };

  // Letters pick colours while the Mastermind tab is shown.
  document.addEventListener("keydown", (event) => {
    if ($("mastermind").hidden) return;
    const tag = event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toUpperCase();
    const count = mm.state ? mm.state.colors : 6;
    if (key.length === 1 && key >= "A" && key < letter(count)) {
      event.preventDefault();
      pick(colourOf(key));
    }
  });

  resetCompose();
  drawPalette();
  drawSlots();
  startMastermind();
})();
