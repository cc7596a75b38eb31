// boardgame.io's own server (Koa, its Lobby routes, socket.io), default
// in-memory storage. Usage: node server.js PORT; prints "listening PORT".
const { Server, Origins } = require('boardgame.io/server');
const { TicTacToe } = require('./game');

const port = Number(process.argv[2]);
const server = Server({ games: [TicTacToe], origins: [Origins.LOCALHOST] });
server.run({ port, callback: () => console.log(`listening ${port}`) });
