package runtime

import (
	"math"
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
	_, err = d.Malloc(int(FuncWindow - GlobalBase + 1))
	require.ErrorContains(t, err, "out of device memory")

	// The failed requests consumed nothing: an allocation still starts at GlobalBase.
	p, err := d.Malloc(8)
	require.NoError(t, err)
	require.Equal(t, GlobalBase, p)
}

func TestMallocExhaustsTheGlobalRange(t *testing.T) {
	d := NewDevice()
	// Raise the high-water mark to one page below the top of the range, as billions of
	// allocations would, without holding gigabytes of host memory.
	left := int(FuncWindow-GlobalBase) - pageSize
	d.next = FuncWindow - pageSize
	d.pages = append(d.pages, make([]int32, left>>pageShift)...)

	p, err := d.Malloc(pageSize)
	require.NoError(t, err)
	require.Equal(t, FuncWindow-pageSize, p)
	require.NotNil(t, d.Bytes(uint64(p)+pageSize-1, 1))
	_, err = d.Malloc(0)
	require.EqualError(t, err, "runtime: malloc of 0 bytes: out of device memory (0 bytes left)")
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

	// Addresses are never reused.
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
