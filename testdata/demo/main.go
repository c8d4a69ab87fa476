// Command demo prints NumPy (.npy) and raw float32 (.bin) arrays for `make demo`, and writes
// the demo's inputs.
//
// Usage:
//
//	go run ./testdata/demo FILE...    print each file's dtype, shape and first values
//	go run ./testdata/demo -gen DIR   write DIR/a.npy and DIR/b.npy, 1000 float32 values each
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/sbinet/npyio/npy"
)

// shown is how many leading values are printed of each array.
const shown = 8

func main() {
	gen := flag.String("gen", "", "write the demo inputs a.npy and b.npy to `DIR`")
	flag.Parse()
	if *gen != "" {
		check(generate(*gen))
		return
	}
	for _, path := range flag.Args() {
		check(show(path))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// generate writes a[i] = i and b[i] = i/4 for i < 1000.
func generate(dir string) error {
	a, b := make([]float32, 1000), make([]float32, 1000)
	for i := range a {
		a[i], b[i] = float32(i), float32(i)/4
	}
	for name, v := range map[string][]float32{"a.npy": a, "b.npy": b} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := npy.Write(f, v); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// show prints one file: a .npy array with its dtype and shape, anything else as raw float32.
func show(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var (
		vals any
		desc string
	)
	if strings.HasSuffix(path, ".npy") {
		r, err := npy.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		p := reflect.New(reflect.SliceOf(npy.TypeFrom(r.Header.Descr.Type)))
		if err := r.Read(p.Interface()); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		vals = p.Elem().Interface()
		desc = fmt.Sprintf("dtype %s, shape %s", r.Header.Descr.Type, shapeString(r.Header.Descr.Shape))
	} else {
		buf, err := io.ReadAll(f)
		if err != nil {
			return err
		}
		fs := make([]float32, len(buf)/4)
		for i := range fs {
			fs[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
		}
		vals = fs
		desc = fmt.Sprintf("raw float32, %d values", len(fs))
	}
	v := reflect.ValueOf(vals)
	var parts []string
	for i := 0; i < v.Len() && i < shown; i++ {
		parts = append(parts, fmt.Sprint(v.Index(i).Interface()))
	}
	if v.Len() > shown {
		parts = append(parts, "...", fmt.Sprint(v.Index(v.Len()-1).Interface()))
	}
	fmt.Printf("%s: %s: [%s]\n", filepath.Base(path), desc, strings.Join(parts, " "))
	return nil
}

// shapeString spells a shape as NumPy prints it: (), (3,), (2, 3).
func shapeString(shape []int) string {
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = fmt.Sprint(d)
	}
	if len(s) == 1 {
		return "(" + s[0] + ",)"
	}
	return "(" + strings.Join(s, ", ") + ")"
}
