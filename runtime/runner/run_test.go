package runner

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbinet/npyio/npy"
	"github.com/stretchr/testify/require"
)

// writeNPYFile writes v with npyio to dir/name and returns the path.
func writeNPYFile(t *testing.T, dir, name string, v any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, npy.Write(&b, v))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o666))
	return path
}

// readNPY and writeNPY keep the dtype, the shape and the bytes of every element type.
func TestNPYRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		val   any
		dtype string
		shape []int
		data  []byte // the little-endian bytes
	}{
		{"i16_3d", [2][1][3]int16{{{1, -2, 3}}, {{-4, 5, -32768}}}, "<i2", []int{2, 1, 3},
			[]byte{1, 0, 0xfe, 0xff, 3, 0, 0xfc, 0xff, 5, 0, 0, 0x80}},
		{"u8", []uint8{7, 8, 9}, "|u1", []int{3}, []byte{7, 8, 9}},
		{"bool", []bool{true, false, true}, "|b1", []int{3}, []byte{1, 0, 1}},
		{"f64_scalar", 2.5, "<f8", nil, binary.LittleEndian.AppendUint64(nil, math.Float64bits(2.5))},
		{"u64_2d", [2][2]uint64{{1, 2}, {3, math.MaxUint64}}, "<u8", []int{2, 2},
			append(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 1), 2), 3), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)},
		{"c64", []complex64{complex(1, -1)}, "<c8", []int{1},
			binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1)), math.Float32bits(-1))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeNPYFile(t, dir, tc.name+".npy", tc.val)
			data, arr, err := readNPY(path)
			require.NoError(t, err)
			require.Equal(t, tc.data, data)
			require.Equal(t, tc.dtype, arr.dtype)
			require.Equal(t, tc.shape, arr.shape)

			var out bytes.Buffer
			require.NoError(t, writeNPY(&out, arr, data))
			back := filepath.Join(dir, tc.name+".out.npy")
			require.NoError(t, os.WriteFile(back, out.Bytes(), 0o666))
			data2, arr2, err := readNPY(back)
			require.NoError(t, err)
			require.Equal(t, tc.data, data2)
			require.Equal(t, arr, arr2)
		})
	}

	// A big-endian array is loaded little-endian and written back as little-endian.
	var be bytes.Buffer
	hdr := "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }"
	hdr += strings.Repeat(" ", 128-10-len(hdr)-1) + "\n"
	be.WriteString("\x93NUMPY\x01\x00")
	be.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(hdr))))
	be.WriteString(hdr)
	be.Write([]byte{0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe})
	path := filepath.Join(dir, "be.npy")
	require.NoError(t, os.WriteFile(path, be.Bytes(), 0o666))
	data, arr, err := readNPY(path)
	require.NoError(t, err)
	require.Equal(t, []byte{2, 1, 0, 0, 0xfe, 0xff, 0xff, 0xff}, data)
	require.Equal(t, []int{2}, arr.shape)
	var out bytes.Buffer
	require.NoError(t, writeNPY(&out, arr, data))
	require.Contains(t, out.String(), "'descr': '<i4'")
	require.True(t, bytes.HasSuffix(out.Bytes(), data))

	// Fortran order, a dtype npyio cannot hold, truncated data and garbage are errors.
	for _, tc := range []struct{ name, header, data, msg string }{
		{"fortran", "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }", "\x00\x00\x00\x00\x00\x00\x00\x00",
			"Fortran-order arrays are not supported; save the array in C order"},
		{"strings", "{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", "abcabcabcabc",
			`unsupported dtype "<U3" (want bool, integers, floats or complex)`},
		{"short", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", "\x00\x00\x00\x00",
			"4 bytes of array data, the header (dtype <f4, shape [3]) says 12"},
		{"nonewline", "", "", "malformed .npy header"},
	} {
		var b bytes.Buffer
		b.WriteString("\x93NUMPY\x01\x00")
		h := tc.header
		if h != "" {
			h += "\n"
		} else {
			h = "{'descr'"
		}
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(h))))
		b.WriteString(h)
		b.WriteString(tc.data)
		path := filepath.Join(dir, tc.name+".npy")
		require.NoError(t, os.WriteFile(path, b.Bytes(), 0o666))
		_, _, err := readNPY(path)
		require.ErrorContains(t, err, tc.msg, tc.name)
	}
}

// syncBuffer is a bytes.Buffer safe for the progress goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgress(t *testing.T) {
	var w syncBuffer
	p := startProgress(&w, 10, 0, time.Millisecond)
	p.update(3, 10)
	p.update(5, 10)
	p.update(4, 10) // reports from workers may arrive out of order
	require.Eventually(t, func() bool {
		return strings.Contains(w.String(), "\r\x1b[Kptx2go run: 5/10 CTAs (50%), ")
	}, 5*time.Second, time.Millisecond)
	p.finish()
	require.True(t, strings.HasSuffix(w.String(), " CTAs/s\r\x1b[K"), "%q", w.String())

	// A run shorter than the delay shows nothing.
	var quiet syncBuffer
	p = startProgress(&quiet, 10, time.Hour, time.Millisecond)
	p.update(10, 10)
	p.finish()
	require.Empty(t, quiet.String())

	// Only a terminal gets progress.
	require.False(t, isTerminal(&quiet))
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer f.Close()
	require.False(t, isTerminal(f))
}
