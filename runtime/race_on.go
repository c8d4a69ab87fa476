//go:build race

package runtime

// raceEnabled makes the lane accessors of lanes.go access memory atomically, so that the race
// detector accepts what PTX allows: CTAs running in parallel that read a word other CTAs
// update with atomics.
const raceEnabled = true
