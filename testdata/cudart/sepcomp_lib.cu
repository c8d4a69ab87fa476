// sepcomp_lib: the device library of sepcomp (nvcc -rdc=true): functions and a table the other
// translation unit uses, and a file-local table with the same name as one there.

// offsets is local to this translation unit; sepcomp.cu has its own.
static __device__ int offsets[2] = {1000, 2000};

__device__ int scale_by[1] = {3};

// scale is called directly and through a pointer from sepcomp.cu.
__device__ float scale(float x) { return x * scale_by[0] + offsets[0]; }

// shift is only called through a pointer.
__device__ float shift(float x) { return x - offsets[1]; }
