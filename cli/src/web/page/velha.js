// Jogo da velha on the page.
"use strict";

(function () {
  const {
    $, api, newGame, move, forget, sleep, setStatus, el, arrowKeys, has, boardStatus, whoStarts,
  } = window.boardkit;

  // --- Jogo da velha ----------------------------------------------------------

  const velha = { id: null, state: null, busy: false, focus: 0 };
  const cellName = (r, c) => String.fromCharCode(65 + r) + (c + 1);


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

  whoStarts("velha");
  $("velha-setup").requestSubmit();
})();
