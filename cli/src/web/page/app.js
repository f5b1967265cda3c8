// boardkit's page: draws the games the server keeps and sends the player's
// choices. The rules and the computer players run on the server (the kit's
// library); nothing here decides who wins. Plain script, no build step.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // --- The API --------------------------------------------------------------

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new Error("the server cannot be reached: is boardkit serve still running?");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    if (!response.ok) {
      const why = data && data.error ? data.error : "HTTP " + response.status;
      const error = new Error(why);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  const newGame = (request) => api("POST", "/api/games", request);
  const move = (id, request) => api("POST", "/api/games/" + id + "/moves", request);
  const forget = (id) => {
    if (id) api("DELETE", "/api/games/" + id).catch(() => {});
  };
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  function setStatus(which, text) {
    $(which + "-status").textContent = text;
  }

  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children || []) node.append(child);
    return node;
  }

  // Moves focus among `buttons` laid out `cols` to a row with the arrow keys
  // (a roving tabindex: one of them is in the tab order).
  function arrowKeys(container, cols, onMove) {
    container.onkeydown = (event) => {
      const buttons = Array.from(container.querySelectorAll("button"));
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols }[event.key];
      if (step === undefined) return;
      const next = at + step;
      const sameRow = Math.floor(next / cols) === Math.floor(at / cols);
      if (next < 0 || next >= buttons.length || (Math.abs(step) === 1 && !sameRow)) return;
      event.preventDefault();
      buttons[at].tabIndex = -1;
      buttons[next].tabIndex = 0;
      buttons[next].focus();
      if (onMove) onMove(next);
    };
  }

  // --- Tabs -----------------------------------------------------------------

  const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
  function showTab(tab) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !selected;
    }
  }
  tabs.forEach((tab, i) => {
    tab.onclick = () => showTab(tab);
    tab.onkeydown = (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = tabs[(i + step + tabs.length) % tabs.length];
      showTab(next);
      next.focus();
    };
  });

  // --- Jogo da velha ----------------------------------------------------------

  const velha = { id: null, state: null, busy: false, focus: 0 };
  const cellName = (r, c) => String.fromCharCode(65 + r) + (c + 1);
  const has = (cells, r, c) => cells.some(([a, b]) => a === r && b === c);

  function boardStatus(s, names, lastName) {
    const name = (mark) => names[mark];
    if (s.over) {
      if (!s.winner) return s.result + " — a draw.";
      if (s.computer) {
        return s.result + (s.winner === s.computer.mark ? " — the computer wins." : " — you win!");
      }
      return s.result + " — " + name(s.winner) + " wins.";
    }
    let text = "";
    if (s.computer && s.computer_move && s.last_move &&
        s.computer_move[0] === s.last_move[0] && s.computer_move[1] === s.last_move[1]) {
      text = "The computer (" + s.computer.level + ") played " + lastName(s.computer_move) + ". ";
    }
    if (s.computer) return text + "Your turn: you play " + name(s.turn) + ".";
    return text + name(s.turn) + " to play.";
  }

  function drawVelha() {
    const s = velha.state;
    const board = $("velha-board");
    board.replaceChildren();
    if (!s) return;
    board.style.setProperty("--n", s.cols);
    board.setAttribute("aria-rowcount", s.rows);
    velha.focus = Math.min(velha.focus, s.rows * s.cols - 1);
    s.cells.forEach((row, r) => {
      const line = el("div", { className: "velha-row" });
      line.setAttribute("role", "row");
      row.forEach((mark, c) => {
        const i = r * s.cols + c;
        const cell = el("button", { type: "button", className: "cell", textContent: mark || "" });
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = i === velha.focus ? 0 : -1;
        let label = cellName(r, c) + ", " + (mark || "empty");
        if (mark) cell.classList.add(mark === "X" ? "x" : "o");
        if (has(s.winning_cells, r, c)) {
          cell.classList.add("win");
          label += ", winning line";
        }
        if (s.computer_move && s.computer_move[0] === r && s.computer_move[1] === c) {
          cell.classList.add("computer");
          label += ", the computer's last move";
        } else if (s.last_move && s.last_move[0] === r && s.last_move[1] === c) {
          cell.classList.add("last");
        }
        cell.setAttribute("aria-label", label);
        if (mark || s.over) cell.setAttribute("aria-disabled", "true");
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.onclick = () => playVelha(r, c);
        cell.onfocus = () => { velha.focus = i; };
        line.append(cell);
      });
      board.append(line);
    });
    arrowKeys(board, s.cols);
    board.classList.toggle("over", s.over);
    setStatus("velha", boardStatus(s, { X: "X", O: "O" }, ([r, c]) => cellName(r, c)));
  }

  async function playVelha(r, c) {
    const s = velha.state;
    if (!s || velha.busy) return;
    if (s.over) return setStatus("velha", s.result + ". Start a new game to play again.");
    if (s.cells[r][c]) return setStatus("velha", cellName(r, c) + " is taken: choose an empty cell.");
    velha.busy = true;
    if (s.computer) setStatus("velha", "The computer is thinking…");
    try {
      velha.state = await move(velha.id, { row: r, col: c });
      drawVelha();
      const focused = $("velha-board").querySelector('[tabindex="0"]');
      if (focused) focused.focus();
    } catch (e) {
      setStatus("velha", "Not played: " + e.message);
    } finally {
      velha.busy = false;
    }
  }

  $("velha-setup").onsubmit = async (event) => {
    event.preventDefault();
    const opponent = $("velha-opponent").value || null;
    const request = {
      game: "velha",
      size: Number($("velha-size").value),
      opponent,
      computer_first: opponent !== null && $("velha-first").value === "computer",
    };
    forget(velha.id);
    velha.id = null;
    velha.busy = true;
    setStatus("velha", request.computer_first ? "The computer is thinking…" : "Starting…");
    try {
      velha.state = await newGame(request);
      velha.id = velha.state.id;
      velha.focus = Math.floor(request.size / 2) * (request.size + 1);
      drawVelha();
    } catch (e) {
      setStatus("velha", "No game: " + e.message);
    } finally {
      velha.busy = false;
    }
  };

  // --- Connect four -------------------------------------------------------------

  const c4 = { id: null, state: null, busy: false, focus: 0 };
  const discName = { X: "red", O: "yellow" };

  function drawConnect4() {
    const s = c4.state;
    const board = $("connect4-board");
    board.replaceChildren();
    if (!s) return;
    board.style.setProperty("--cols", s.cols);
    board.style.setProperty("--rows", s.rows);
    c4.focus = Math.min(c4.focus, s.cols - 1);
    for (let c = 0; c < s.cols; c++) {
      const discs = s.cells.filter((row) => row[c]).length;
      const full = discs === s.rows;
      const column = el("button", { type: "button", className: "column" });
      column.tabIndex = c === c4.focus ? 0 : -1;
      column.dataset.col = c;
      let label = "Column " + (c + 1) + ", " + (full ? "full" : discs + " disc" + (discs === 1 ? "" : "s"));
      for (let r = 0; r < s.rows; r++) {
        const mark = s.cells[r][c];
        const hole = el("span", { className: "hole" });
        if (mark) hole.classList.add(mark === "X" ? "x" : "o");
        if (has(s.winning_cells, r, c)) hole.classList.add("win");
        if (s.computer_move && s.computer_move[0] === r && s.computer_move[1] === c) {
          hole.classList.add("computer");
          label += ", the computer's last disc on top";
        } else if (s.last_move && s.last_move[0] === r && s.last_move[1] === c) {
          hole.classList.add("last");
        }
        column.append(hole);
      }
      column.append(el("span", { className: "number", textContent: String(c + 1) }));
      column.setAttribute("aria-label", label);
      if (full || s.over) column.setAttribute("aria-disabled", "true");
      column.onclick = () => playConnect4(c);
      column.onfocus = () => { c4.focus = c; };
      board.append(column);
    }
    arrowKeys(board, s.cols);
    board.classList.toggle("over", s.over);
    setStatus("connect4", boardStatus(s, discName, ([, c]) => "column " + (c + 1)));
  }

  async function playConnect4(c) {
    const s = c4.state;
    if (!s || c4.busy) return;
    if (s.over) return setStatus("connect4", s.result + " Start a new game to play again.");
    if (s.cells[0][c]) return setStatus("connect4", "Column " + (c + 1) + " is full: choose another.");
    c4.busy = true;
    if (s.computer) setStatus("connect4", "The computer is thinking…");
    try {
      c4.state = await move(c4.id, { col: c });
      drawConnect4();
      const focused = $("connect4-board").querySelector('[tabindex="0"]');
      if (focused) focused.focus();
    } catch (e) {
      setStatus("connect4", "Not played: " + e.message);
    } finally {
      c4.busy = false;
    }
  }

  $("connect4-setup").onsubmit = async (event) => {
    event.preventDefault();
    const opponent = $("connect4-opponent").value || null;
    const request = {
      game: "connect4",
      cols: Number($("connect4-cols").value),
      rows: Number($("connect4-rows").value),
      opponent,
      computer_first: opponent !== null && $("connect4-first").value === "computer",
    };
    forget(c4.id);
    c4.id = null;
    c4.busy = true;
    setStatus("connect4", request.computer_first ? "The computer is thinking…" : "Starting…");
    try {
      c4.state = await newGame(request);
      c4.id = c4.state.id;
      c4.focus = Math.floor(request.cols / 2);
      drawConnect4();
    } catch (e) {
      c4.state = null;
      drawConnect4();
      setStatus("connect4", "No game: " + e.message);
    } finally {
      c4.busy = false;
    }
  };

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

  // "Who starts" means something against the computer only.
  for (const game of ["velha", "connect4"]) {
    const opponent = $(game + "-opponent");
    const first = () => { $(game + "-first").disabled = opponent.value === ""; };
    opponent.addEventListener("change", first);
    first();
  }

  // Every game starts ready to play.
  resetCompose();
  drawPalette();
  drawSlots();
  $("velha-setup").requestSubmit();
  $("connect4-setup").requestSubmit();
  startMastermind();
})();
