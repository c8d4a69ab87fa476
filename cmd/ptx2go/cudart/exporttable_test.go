package main

import (
	"testing"
	"unsafe"
)

// TestProcSymbol checks which symbol cuGetProcAddress hands out for a name and CUDA version,
// against the versions cuda.h gives the names (cudaTypedefs.h's PFN_NAME_vVERSION).
func TestProcSymbol(t *testing.T) {
	for _, c := range []struct {
		name    string
		version int
		want    string
		status  int
	}{
		{"cuMemAlloc", 3010, "cuMemAlloc", procFound},
		{"cuMemAlloc", 11080, "cuMemAlloc_v2", procFound},
		{"cuCtxCreate", 11040, "cuCtxCreate_v3", procFound},
		{"cuCtxCreate", 11030, "cuCtxCreate_v2", procFound},
		{"cuGraphInstantiate", 10000, "cuGraphInstantiate", procFound},
		{"cuGraphInstantiate", 11080, "cuGraphInstantiate_v2", procFound},
		{"cuStreamGetCaptureInfo", 12030, "cuStreamGetCaptureInfo_v3", procFound},
		{"cuKernelGetName", 12020, "", procVersionTooLow},
		{"cuNoSuchFunction", 12040, "cuNoSuchFunction", procFound},
	} {
		got, st := procSymbol(c.name, c.version)
		if got != c.want || int(st) != c.status {
			t.Errorf("procSymbol(%s, %d) = %q, %d; want %q, %d", c.name, c.version, got, st, c.want, c.status)
		}
	}
}

// TestGetProcAddressNotFound checks cuGetProcAddress_v2's answers for a name no driver has and
// for one newer than the version asked for. (The symbols it hands out are the drop-in
// library's own, which a test binary does not export: the static builds of TestExec, whose
// runtimes look up every entry point they use, cover those.)
func TestGetProcAddressNotFound(t *testing.T) {
	for _, c := range []struct {
		name    string
		version int
		status  int
	}{
		{"cuNoSuchFunction", 12040, procNotFound},
		{"cuKernelGetName", 12020, procVersionTooLow},
	} {
		p := unsafe.Pointer(&c)
		var st _Ctype_int
		e := cuGetProcAddress_v2(_Cfunc_CString(c.name), &p, _Ctype_int(c.version), 0, &st)
		if p != nil || e != errSymbolNotFound || int(st) != c.status {
			t.Errorf("cuGetProcAddress_v2(%s, %d) = %p, error %d, status %d; want NULL, %d, %d", c.name, c.version, p, e, st, errSymbolNotFound, c.status)
		}
	}
}

// TestExportTables checks that every private table NVIDIA's runtimes ask for is there, and
// that an unknown one is refused with CUDA_ERROR_NOT_SUPPORTED.
func TestExportTables(t *testing.T) {
	for _, id := range [][16]byte{
		{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
		{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
		{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
		{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
		{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
	} {
		var p unsafe.Pointer
		if e := cuGetExportTable(&p, (*_Ctype_uchar)(unsafe.Pointer(&id[0]))); e != 0 || p == nil {
			t.Errorf("table %s: error %d, %p", uuidString(id[:]), e, p)
		}
	}
	unknown := [16]byte{1, 2, 3}
	var p unsafe.Pointer
	if e := cuGetExportTable(&p, (*_Ctype_uchar)(unsafe.Pointer(&unknown[0]))); e != errNotSupported || p != nil {
		t.Errorf("an unknown table: error %d, %p; want %d and NULL", e, p, errNotSupported)
	}
}
