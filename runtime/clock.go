package runtime

import "time"

// clockBase is the origin of %clock64: a monotonic clock in nanoseconds since the process
// started, so that it never runs backwards. Both engines read it through Clock64, so their
// clocks agree.
var clockBase = time.Now()

// Clock64 is %clock64's value (%clock is its low 32 bits, %clock_hi its high ones).
func Clock64() uint64 { return uint64(time.Since(clockBase)) }

// GlobalTimer is %globaltimer's value: the wall clock in nanoseconds since the Unix epoch.
func GlobalTimer() uint64 { return uint64(time.Now().UnixNano()) }
