//go:build race

package closure

// raceEnabled makes stores to memory atomic so that the race detector accepts what PTX
// allows: CTAs running in parallel that read a word other CTAs update with atomics.
const raceEnabled = true
