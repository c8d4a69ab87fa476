package runtime

import (
	"fmt"
	"math"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// roundTrip uploads s, checks the allocation's size, and downloads it again.
func roundTrip[T Scalar](t *testing.T, d *Device, s []T) {
	t.Helper()
	p, err := Upload(d, s)
	require.NoError(t, err)
	n, ok := d.Size(p)
	require.True(t, ok)
	require.Equal(t, len(s)*int(unsafe.Sizeof(s[0])), n)
	got := make([]T, len(s))
	require.NoError(t, Download(d, got, p))
	require.Equal(t, s, got)
}

func TestUploadDownloadEveryScalar(t *testing.T) {
	d := NewDevice()
	roundTrip(t, d, []int8{math.MinInt8, -1, 0, 1, math.MaxInt8})
	roundTrip(t, d, []uint8{0, 1, 0x80, math.MaxUint8})
	roundTrip(t, d, []int16{math.MinInt16, -2, 3, math.MaxInt16})
	roundTrip(t, d, []uint16{0, 0x1234, math.MaxUint16})
	roundTrip(t, d, []int32{math.MinInt32, -3, 4, math.MaxInt32})
	roundTrip(t, d, []uint32{0, 0xdeadbeef, math.MaxUint32})
	roundTrip(t, d, []int64{math.MinInt64, -5, 6, math.MaxInt64})
	roundTrip(t, d, []uint64{0, 0x0123456789abcdef, math.MaxUint64})
	roundTrip(t, d, []float32{0, -1.5, float32(math.Inf(1)), math.SmallestNonzeroFloat32, math.MaxFloat32})
	roundTrip(t, d, []float64{0, -2.25, math.Inf(-1), math.SmallestNonzeroFloat64, math.MaxFloat64})

	type celsius float32 // a named type satisfies Scalar too
	roundTrip(t, d, []celsius{-40, 100})
}

func TestDeviceMemoryIsLittleEndian(t *testing.T) {
	d := NewDevice()
	p, err := Upload(d, []uint32{0x04030201})
	require.NoError(t, err)
	require.Equal(t, []byte{1, 2, 3, 4}, d.Bytes(uint64(p), 4))
}

func TestWriteAndCopies(t *testing.T) {
	d := NewDevice()
	p, err := d.Malloc(16)
	require.NoError(t, err)
	require.NoError(t, Write(d, p+4, []uint16{0xaabb, 0xccdd}))
	got := make([]byte, 16)
	require.NoError(t, d.CopyOut(got, p))
	require.Equal(t, []byte{0, 0, 0, 0, 0xbb, 0xaa, 0xdd, 0xcc, 0, 0, 0, 0, 0, 0, 0, 0}, got)

	require.NoError(t, d.CopyIn(p+14, []byte{7, 9}))
	require.NoError(t, d.CopyOut(got[:2], p+14))
	require.Equal(t, []byte{7, 9}, got[:2])

	err = d.CopyIn(p+15, []byte{1, 2})
	require.EqualError(t, err, "runtime: copy in of 2 bytes at 0x1000f: past the end of the 16-byte allocation at 0x10000")
	err = Download(d, make([]uint32, 5), p)
	require.EqualError(t, err, "runtime: copy out of 20 bytes at 0x10000: past the end of the 16-byte allocation at 0x10000")
	err = Write(d, 0x100, []int8{1})
	require.EqualError(t, err, "runtime: copy in of 1 bytes at 0x100: not inside a live allocation")
	// A failed copy leaves device memory as it was.
	require.NoError(t, d.CopyOut(got, p))
	require.Equal(t, []byte{0, 0, 0, 0, 0xbb, 0xaa, 0xdd, 0xcc, 0, 0, 0, 0, 0, 0, 7, 9}, got)

	// Zero-length copies succeed inside or at the end of a live allocation only.
	require.NoError(t, d.CopyIn(p+16, nil))
	require.NoError(t, Download(d, []float64{}, p))
	require.Error(t, d.CopyOut(nil, 0))
	require.Error(t, d.CopyIn(p+17, nil))
}

func TestMallocZeroFillsAndAligns(t *testing.T) {
	d := NewDevice()
	prev := Ptr(0)
	for _, n := range []int{0, 1, 3, 255, 256, 4095, 4096, 4097, 100_000} {
		p, err := d.Malloc(n)
		require.NoError(t, err)
		require.Greater(t, p, prev, "allocations are placed at increasing addresses")
		prev = p
		require.GreaterOrEqual(t, p, GlobalBase)
		require.Zero(t, p%256, "device alignment")
		require.Less(t, uint64(p+Ptr(n)), uint64(FuncWindow))

		b := d.Bytes(uint64(p), n)
		require.NotNil(t, b, "n=%d", n)
		require.Len(t, b, n)
		require.Equal(t, n, cap(b))
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8, "host alignment of the backing store")
		for _, v := range b {
			require.Zero(t, v)
		}
		size, ok := d.Size(p)
		require.True(t, ok)
		require.Equal(t, n, size)
	}
}

func TestMallocErrors(t *testing.T) {
	d := NewDevice()
	_, err := d.Malloc(-1)
	require.EqualError(t, err, "runtime: malloc of -1 bytes: negative size")
	_, err = d.Malloc(math.MaxInt)
	require.ErrorContains(t, err, "out of device memory")
	_, err = d.Malloc(int(HighLimit - HighBase + 1))
	require.ErrorContains(t, err, "out of device memory")

	// The failed requests consumed nothing: an allocation still starts at GlobalBase.
	p, err := d.Malloc(8)
	require.NoError(t, err)
	require.Equal(t, GlobalBase, p)
}

// Allocations fill the range below FuncWindow first (32-bit addresses), then continue above
// 4 GiB, until both ranges are full.
func TestMallocFillsLowThenHigh(t *testing.T) {
	d := NewDevice()
	// Leave one page free below FuncWindow and one above 4 GiB, as many allocations would,
	// without holding gigabytes of host memory.
	require.True(t, d.low.takeAt(uint64(GlobalBase), uint64(FuncWindow-GlobalBase)-pageSize))
	require.True(t, d.high.takeAt(uint64(HighBase)+pageSize, uint64(HighLimit-HighBase)-pageSize))

	p, err := d.Malloc(pageSize)
	require.NoError(t, err)
	require.Equal(t, FuncWindow-pageSize, p)
	require.NotNil(t, d.Bytes(uint64(p)+pageSize-1, 1))
	q, err := d.Malloc(0)
	require.NoError(t, err)
	require.Equal(t, HighBase, q)
	require.NotNil(t, d.Bytes(uint64(q), 0))
	_, err = d.Malloc(0)
	require.EqualError(t, err, "runtime: malloc of 0 bytes: out of device memory (0 bytes left)")
}

// More than 4 GiB of allocations: the address space is reserved, and only the pages a
// program touches take host memory.
func TestMallocBeyond4GiB(t *testing.T) {
	d := NewDevice()
	const n = 2 << 30
	var ptrs []Ptr
	for i := range 4 {
		p, err := d.Malloc(n)
		require.NoError(t, err, "allocation %d", i)
		ptrs = append(ptrs, p)
		require.NoError(t, Write(d, p+n-8, []uint64{uint64(i) + 100}))
		require.NoError(t, Write(d, p, []uint64{uint64(i) + 200}))
	}
	require.Less(t, uint64(ptrs[0]), uint64(FuncWindow), "the first fits below 4 GiB")
	require.GreaterOrEqual(t, uint64(ptrs[3]), uint64(HighBase))
	for i, p := range ptrs {
		got := make([]uint64, 1)
		require.NoError(t, Download(d, got, p+n-8))
		require.Equal(t, uint64(i)+100, got[0])
		require.NoError(t, Download(d, got, p))
		require.Equal(t, uint64(i)+200, got[0])
		require.Nil(t, d.Bytes(uint64(p)+n-4, 8), "past the end of allocation %d", i)
	}
	// One allocation larger than the whole 32-bit range.
	big, err := d.Malloc(5 << 30)
	require.NoError(t, err)
	require.GreaterOrEqual(t, uint64(big), uint64(HighBase))
	require.NoError(t, Write(d, big+5<<30-4, []uint32{0xabcd}))
	got := make([]uint32, 1)
	require.NoError(t, Download(d, got, big+5<<30-4))
	require.Equal(t, uint32(0xabcd), got[0])
	for _, p := range append(ptrs, big) {
		require.NoError(t, d.Free(p))
	}
}

// A program that allocates and frees in a loop never runs out of addresses: freed ranges come
// back after the quarantine. 4000 rounds of 256 MiB are 1000 GiB of allocations, four times
// the device's address space.
func TestFreedRangesAreReused(t *testing.T) {
	d := NewDevice()
	seen := map[Ptr]bool{}
	for i := range 4000 {
		p, err := d.Malloc(256 << 20)
		require.NoError(t, err, "round %d", i)
		seen[p] = true
		require.NoError(t, d.Free(p))
	}
	require.Less(t, len(seen), 4000, "addresses were reused")
	// Small allocations too, and the allocation table does not grow with the rounds.
	for range 20000 {
		p, err := d.Malloc(100)
		require.NoError(t, err)
		require.NoError(t, d.Free(p))
	}
	require.LessOrEqual(t, len(d.allocs), quarantineCount+2)
}

// A freed range stays unusable while it is in quarantine: an access through the stale pointer
// fails and names the freed allocation, and a new allocation gets another address.
func TestUseAfterFreeInQuarantine(t *testing.T) {
	d := NewDevice()
	a, err := d.Malloc(64)
	require.NoError(t, err)
	require.NoError(t, d.Free(a))
	for range 100 {
		p, err := d.Malloc(64)
		require.NoError(t, err)
		require.NotEqual(t, a, p)
		require.NoError(t, d.Free(p))
	}
	require.Nil(t, d.Bytes(uint64(a), 4))
	require.EqualError(t, d.Memset(a, 0, 4), "runtime: memset of 4 bytes at 0x10000: the allocation at 0x10000 was freed")
	require.EqualError(t, d.Free(a), "runtime: free of 0x10000: double free")
}

func TestBytesBounds(t *testing.T) {
	d := NewDevice()
	a, err := d.Malloc(100)
	require.NoError(t, err)
	b, err := d.Malloc(8192)
	require.NoError(t, err)
	require.Equal(t, a+pageSize, b, "the next allocation starts on the next page")
	pa, pb := uint64(a), uint64(b)

	// The exact ends of an allocation are valid; one byte past is not.
	require.Len(t, d.Bytes(pa, 100), 100)
	require.Len(t, d.Bytes(pa+99, 1), 1)
	require.Len(t, d.Bytes(pa+100, 0), 0)
	require.NotNil(t, d.Bytes(pa+100, 0))
	require.Nil(t, d.Bytes(pa, 101))
	require.Nil(t, d.Bytes(pa+100, 1))
	require.Nil(t, d.Bytes(pa+99, 2))
	require.Len(t, d.Bytes(pb+8191, 1), 1)
	require.Len(t, d.Bytes(pb+4000, 200), 200, "an access may cross a page inside one allocation")
	require.Nil(t, d.Bytes(pb+8192, 1))
	require.Nil(t, d.Bytes(pb+8191, 2))

	// The gap between two allocations, and an access spanning them.
	require.Nil(t, d.Bytes(pa+200, 1))
	require.Nil(t, d.Bytes(pb-1, 1))
	require.Nil(t, d.Bytes(pa+99, int(pb-pa)))

	// The null page and addresses above the high-water mark.
	require.Nil(t, d.Bytes(0, 0))
	require.Nil(t, d.Bytes(0, 1))
	require.Nil(t, d.Bytes(uint64(GlobalBase)-1, 1))
	require.Nil(t, d.Bytes(pb+pageSize*2, 1))
	require.Nil(t, d.Bytes(uint64(SharedWindow), 1))
	require.Nil(t, d.Bytes(math.MaxUint64, 1))
	require.Nil(t, d.Bytes(math.MaxUint64-3, 4))

	// Huge and negative sizes never wrap around.
	require.Nil(t, d.Bytes(pa, -1))
	require.Nil(t, d.Bytes(pa+50, math.MinInt))
	require.Nil(t, d.Bytes(pa, math.MaxInt))
	require.Nil(t, d.Bytes(pa+1, math.MaxInt))

	// The slice aliases the device memory and cannot be extended past n.
	s := d.Bytes(pa+10, 4)
	require.Equal(t, 4, cap(s))
	copy(s, []byte{1, 2, 3, 4})
	out := make([]byte, 4)
	require.NoError(t, d.CopyOut(out, a+10))
	require.Equal(t, []byte{1, 2, 3, 4}, out)
}

func TestFree(t *testing.T) {
	d := NewDevice()
	a, err := d.Malloc(5000)
	require.NoError(t, err)
	b, err := d.Malloc(16)
	require.NoError(t, err)

	require.NoError(t, d.Free(a))
	require.Nil(t, d.Bytes(uint64(a), 1), "use after free")
	require.Nil(t, d.Bytes(uint64(a)+4999, 1), "use after free, second page")
	_, ok := d.Size(a)
	require.False(t, ok)
	require.NotNil(t, d.Bytes(uint64(b), 16), "a neighbour survives")

	require.EqualError(t, d.Free(a), "runtime: free of 0x10000: double free")
	require.EqualError(t, d.Free(b+0x100), "runtime: free of 0x12100: not the start of a live allocation")
	require.EqualError(t, d.Free(0), "runtime: free of 0x0: not the start of a live allocation")
	require.EqualError(t, d.Free(0xffff_ffff_ffff_ffff), "runtime: free of 0xffffffffffffffff: not the start of a live allocation")
	require.EqualError(t, d.Memset(a+8, 1, 4), "runtime: memset of 4 bytes at 0x10008: the allocation at 0x10000 was freed")

	// Freed addresses are not reused at once.
	c, err := d.Malloc(5000)
	require.NoError(t, err)
	require.Greater(t, c, b)
	require.Nil(t, d.Bytes(uint64(a), 1))
}

func TestMemset(t *testing.T) {
	d := NewDevice()
	p, err := d.Malloc(10)
	require.NoError(t, err)
	require.NoError(t, d.Memset(p+2, 0xab, 5))
	require.Equal(t, []byte{0, 0, 0xab, 0xab, 0xab, 0xab, 0xab, 0, 0, 0}, d.Bytes(uint64(p), 10))
	require.NoError(t, d.Memset(p, 0, 0))
	require.EqualError(t, d.Memset(p, 1, -1), "runtime: memset of -1 bytes at 0x10000: negative size")
	require.EqualError(t, d.Memset(p+8, 1, 3), "runtime: memset of 3 bytes at 0x10008: past the end of the 10-byte allocation at 0x10000")
	require.EqualError(t, d.Memset(p+0x800, 1, 1), "runtime: memset of 1 bytes at 0x10800: not inside a live allocation")
	require.Equal(t, []byte{0, 0, 0xab, 0xab, 0xab, 0xab, 0xab, 0, 0, 0}, d.Bytes(uint64(p), 10))
}

func TestManySmallAllocations(t *testing.T) {
	d := NewDevice()
	ptrs := make([]Ptr, 1000)
	for i := range ptrs {
		p, err := Upload(d, []uint32{uint32(i), uint32(i) * 3})
		require.NoError(t, err)
		ptrs[i] = p
	}
	for i := 0; i < len(ptrs); i += 2 {
		require.NoError(t, d.Free(ptrs[i]))
	}
	for i, p := range ptrs {
		b := d.Bytes(uint64(p), 8)
		if i%2 == 0 {
			require.Nil(t, b, "freed allocation %d", i)
			continue
		}
		require.NotNil(t, b, "allocation %d", i)
		require.Equal(t, uint32(i), *(*uint32)(unsafe.Pointer(&b[0])))
		require.Equal(t, uint32(i)*3, *(*uint32)(unsafe.Pointer(&b[4])))
		require.Nil(t, d.Bytes(uint64(p), 9))
		require.Nil(t, d.Bytes(uint64(p)+8, 1))
	}
}

func TestAtomicsAreAtomic(t *testing.T) {
	d := NewDevice()
	p, err := d.Malloc(16)
	require.NoError(t, err)

	const workers, adds = 8, 10_000
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range adds {
				atomic.AddUint32(AtomicU32(d.Bytes(uint64(p)+4, 4)), 1)
				atomic.AddUint64(AtomicU64(d.Bytes(uint64(p)+8, 8)), 3)
			}
		})
	}
	wg.Wait()

	got := make([]uint32, 4)
	require.NoError(t, Download(d, got, p))
	require.Equal(t, []uint32{0, workers * adds, 3 * workers * adds, 0}, got)
}

func BenchmarkBytes(b *testing.B) {
	d := NewDevice()
	var ptrs []Ptr
	for range 64 {
		p, err := d.Malloc(1 << 12)
		require.NoError(b, err)
		ptrs = append(ptrs, p)
	}
	b.ReportAllocs()
	var sink byte
	i := 0
	for b.Loop() {
		sink += d.Bytes(uint64(ptrs[i&63])+uint64(i&1023)*4, 4)[0]
		i++
	}
	_ = sink
}

// MallocHost memory is host memory at its device address: what the device writes, the host
// reads through the pointer, and the other way round.
func TestMallocHost(t *testing.T) {
	d := NewDevice()
	p, err := d.MallocHost(1000)
	require.NoError(t, err)
	b := d.Bytes(uint64(p), 1000)
	require.Len(t, b, 1000)
	require.Equal(t, uintptr(p), uintptr(unsafe.Pointer(&b[0])), "the device address is the host address")
	if goruntime.GOOS == "linux" {
		require.True(t, p >= HighBase && p < HighLimit, "%#x is in the device's range, where kernels use the fast path", p)
	}
	require.Equal(t, make([]byte, 1000), b, "zeroed")
	require.NoError(t, Write(d, p+8, []uint32{0xdeadbeef}))
	require.Equal(t, uint32(0xdeadbeef), *(*uint32)(unsafe.Pointer(&b[8])))
	n, ok := d.Size(p)
	require.True(t, ok)
	require.Equal(t, 1000, n)
	require.Nil(t, d.Bytes(uint64(p)+1000, 1))
	require.NoError(t, d.Free(p))
	require.Nil(t, d.Bytes(uint64(p), 1))
	require.ErrorContains(t, d.Free(p), "double free")
}

// MapHost maps memory the caller owns at its own address, in the device's address range or
// far above it; Free ends the mapping and leaves the memory alone.
func TestMapHost(t *testing.T) {
	d := NewDevice()
	buf := make([]uint64, 100) // Go memory, far above HighLimit
	base := unsafe.Pointer(&buf[3])
	p, err := d.MapHost(base, 80)
	require.NoError(t, err)
	require.Equal(t, uintptr(base), uintptr(p))
	require.NoError(t, Write(d, p, []uint64{7, 8}))
	require.Equal(t, []uint64{7, 8}, buf[3:5])
	require.Nil(t, d.Bytes(uint64(p)-8, 8), "before the mapping")
	require.Nil(t, d.Bytes(uint64(p)+80, 1), "after the mapping")
	require.Len(t, d.Bytes(uint64(p)+72, 8), 8)
	_, err = d.MapHost(unsafe.Pointer(&buf[5]), 8)
	require.ErrorContains(t, err, "overlaps the mapping")
	require.NoError(t, d.Free(p))
	require.Nil(t, d.Bytes(uint64(p), 8))
	require.Equal(t, []uint64{7, 8}, buf[3:5], "the memory stays")

	// In the device's range: the pages must be free.
	q, err := d.MallocHost(pageSize)
	require.NoError(t, err)
	hb := d.Bytes(uint64(q), pageSize)
	require.NoError(t, d.Free(q))
	if goruntime.GOOS == "linux" { // MallocHost memory is in the device's range there
		_, err = d.MapHost(unsafe.Pointer(&hb[0]), 16)
		require.ErrorContains(t, err, "overlap device allocations", "the range is in quarantine")
	}
	for _, bad := range []uintptr{0, 8, uintptr(FuncWindow), uintptr(SharedWindow) + 64} {
		_, err = d.MapHost(*(*unsafe.Pointer)(unsafe.Pointer(&bad)), 16)
		require.Error(t, err, "%#x", bad)
	}
	_, err = d.MapHost(base, 0)
	require.Error(t, err)

	// Host memory inside the device's range, not page-aligned (another device's MallocHost
	// memory): its pages are mapped whole; Size and Free use the address MapHost returned.
	other := NewDevice()
	h, err := other.MallocHost(3 * pageSize)
	require.NoError(t, err)
	hm := other.Bytes(uint64(h), 3*pageSize)
	d = NewDevice()
	u, err := d.MapHost(unsafe.Pointer(&hm[100]), 5000)
	require.NoError(t, err)
	require.Equal(t, uintptr(unsafe.Pointer(&hm[100])), uintptr(u))
	n, ok := d.Size(u)
	require.True(t, ok)
	require.Equal(t, 5000, n)
	require.NoError(t, Write(d, u+4992, []uint64{42}))
	require.Equal(t, uint64(42), *(*uint64)(unsafe.Pointer(&hm[5092])))
	require.EqualError(t, d.Free(u-100), fmt.Sprintf("runtime: free of %#x: not the start of a live allocation", uint64(u-100)))
	require.NoError(t, d.Free(u))
	require.ErrorContains(t, d.Free(u), "double free")
	require.NoError(t, other.Free(h))
}

// A program that allocates and frees large buffers in a loop keeps getting addresses below
// 4 GiB: the quarantined ranges there are reused before the range above 4 GiB is touched.
func TestReuseKeeps32BitAddresses(t *testing.T) {
	d := NewDevice()
	for i := range 20 {
		p, err := d.Malloc(1 << 30)
		require.NoError(t, err)
		require.Less(t, uint64(p), uint64(FuncWindow), "round %d", i)
		require.NoError(t, d.Free(p))
	}
}

// BenchmarkCopy256MiB measures host-to-device and device-to-host copies of 256 MiB (MB/s),
// into an allocation made once (backed lazily: the first copy also takes the page faults).
func BenchmarkCopy256MiB(b *testing.B) {
	const n = 256 << 20
	host := make([]byte, n)
	for i := range host {
		host[i] = byte(i)
	}
	for _, dir := range []string{"in", "out"} {
		b.Run(dir, func(b *testing.B) {
			d := NewDevice()
			p, err := d.Malloc(n)
			require.NoError(b, err)
			require.NoError(b, d.CopyIn(p, host))
			b.SetBytes(n)
			for b.Loop() {
				if dir == "in" {
					err = d.CopyIn(p, host)
				} else {
					err = d.CopyOut(host, p)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
