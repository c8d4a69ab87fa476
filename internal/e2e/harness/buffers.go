package harness

import (
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

func Upload[T runtime.Scalar](tb testing.TB, dev *runtime.Device, s []T) runtime.Ptr {
	tb.Helper()
	p, err := runtime.Upload(dev, s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func Download[T runtime.Scalar](tb testing.TB, dev *runtime.Device, dst []T, p runtime.Ptr) {
	tb.Helper()
	if err := runtime.Download(dev, dst, p); err != nil {
		tb.Fatal(err)
	}
}
