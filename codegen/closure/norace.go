//go:build !race

package closure

// raceEnabled is false in normal builds: plain stores suffice, since 4- and 8-byte accesses
// are aligned and the hardware makes them single-copy atomic.
const raceEnabled = false
