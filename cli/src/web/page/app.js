// boardkit's page: draws the games the server keeps and sends the player's
// choices. The rules and the computer players run on the server (the kit's
// library); nothing here decides who wins. Plain script, no build step.
//
// This part is every game's: the API, the page's helpers and its tabs. Each
// game's drawing is a file of its own (velha.js, connect4.js, mastermind.js),
// served after this one as the same script, reading `window.boardkit`.
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

  // --- What the board games share ---------------------------------------------

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

  // "Who starts" means something against the computer only.
  function whoStarts(game) {
    const opponent = $(game + "-opponent");
    const first = () => { $(game + "-first").disabled = opponent.value === ""; };
    opponent.addEventListener("change", first);
    first();
  }

  window.boardkit = {
    $, api, newGame, move, forget, sleep, setStatus, el, arrowKeys, has, boardStatus, whoStarts,
  };
})();
