// Tic-tac-toe for boardgame.io: the same rules as gamehost's tictactoe plugin
// (two seats, 3x3 grid, three in a row wins, a full grid is a draw).
const { INVALID_MOVE } = require('boardgame.io/core');

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function winner(cells) {
  const line = LINES.find(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
  return line ? cells[line[0]] : null;
}

const TicTacToe = {
  name: 'tictactoe',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (!Number.isInteger(id) || id < 0 || id > 8 || G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    const won = winner(G.cells);
    if (won !== null) return { winner: won };
    if (G.cells.every((cell) => cell !== null)) return { draw: true };
    return undefined;
  },
};

module.exports = { TicTacToe };
