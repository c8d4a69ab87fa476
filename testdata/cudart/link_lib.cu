// The second PTX module of culink.cu: the device function link_kernel.cu's kernel calls.
__device__ float scale_add(float a, float x, float y) { return a * x + y; }
