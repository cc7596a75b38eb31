// Package gamehost is a thin Go client for a gamehost server: a connection
// with the generated GameHost stub, resource names, a match watcher that
// resumes dropped streams, and readable host errors. It knows no game: a
// client plays by choosing among the legal moves each view carries.
package gamehost
