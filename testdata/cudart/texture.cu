// Textures and surfaces through the runtime API, in the style of the cuda-samples
// simpleTexture, simplePitchLinearTexture, simpleLayeredTexture, simpleCubemapTexture and
// simpleSurfaceWrite: 2D linear filtering with normalized coordinates, pitch-linear memory
// read as normalized floats, a layered array, a cubemap, a surface written then read back
// through a texture, and a legacy texture<> reference. Each section prints a hash of the bits
// of what the kernels fetched (hashf), which cmd/ptx2go's TestExec recomputes with
// its own reference of the sampling rules. Every coordinate is a dyadic rational, so that the
// test computes the kernels' coordinates exactly.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

static unsigned hashf(const float *v, int n) {
  unsigned h = 0;
  for (int i = 0; i < n; i++) {
    unsigned b;
    memcpy(&b, &v[i], 4);
    h = (h ^ b) * 0x9e3779b1u;
    h ^= h >> 15;
  }
  return h;
}

// 2D, normalized coordinates: u = (i-5)/64, v = 3(j-3)/128.
__global__ void sample2D(cudaTextureObject_t t, float *out, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < w && j < h)
    out[j * w + i] = tex2D<float>(t, (float)(i - 5) * 0.015625f, (float)(j - 3) * 0.0234375f);
}

// Unnormalized coordinates: x = i/4 + 1/8, y = j/4 + 1/8.
__global__ void samplePitch(cudaTextureObject_t t, float *out, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < w && j < h)
    out[j * w + i] = tex2D<float>(t, (float)i * 0.25f + 0.125f, (float)j * 0.25f + 0.125f);
}

__global__ void sampleLayered(cudaTextureObject_t t, float *out, int w, int h, int layers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < w && j < h)
    for (int l = 0; l < layers; l++)
      out[(l * h + j) * w + i] = tex2DLayered<float>(t, (float)(i - 5) * 0.015625f, (float)(j - 3) * 0.0234375f, l);
}

// Each face's texel centers, as simpleCubemapTexture points at them.
__global__ void sampleCube(cudaTextureObject_t t, float *out, int w) {
  int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
  float u = ((x + 0.5f) / (float)w) * 2.f - 1.f, v = ((y + 0.5f) / (float)w) * 2.f - 1.f;
  float cx, cy, cz;
  switch (face) {
  case 0: cx = 1; cy = -v; cz = -u; break;
  case 1: cx = -1; cy = -v; cz = u; break;
  case 2: cx = u; cy = 1; cz = v; break;
  case 3: cx = u; cy = -1; cz = -v; break;
  case 4: cx = u; cy = -v; cz = 1; break;
  default: cx = -u; cy = -v; cz = -1; break;
  }
  out[(face * w + y) * w + x] = texCubemap<float>(t, cx, cy, cz);
}

__global__ void writeSurface(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    surf2Dwrite((float)(x * 3 - y) * 0.5f, s, x * 4, y);
}

__global__ void readPoint(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

#if CUDART_VERSION < 12000
texture<float, 2, cudaReadModeElementType> texRef2D;
texture<int, 1, cudaReadModeElementType> texRef1D;

__global__ void sampleRef2D(float *out, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < w && j < h)
    out[j * w + i] = tex2D(texRef2D, (float)(i - 5) * 0.015625f, (float)(j - 3) * 0.0234375f);
}

__global__ void fetchRef1D(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(texRef1D, n - 1 - i) * 2;
}
#else
__global__ void fetchObj1D(cudaTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<int>(t, n - 1 - i) * 2;
}
#endif

int main() {
  const int W = 8, H = 8, OW = 48, OH = 40, L = 3;
  dim3 block(8, 8), grid((OW + 7) / 8, (OH + 7) / 8);
  float *dout, out[L * OW * OH];
  CHECK(cudaMalloc(&dout, sizeof out));

  // Linear filtering of a 2D array with normalized coordinates, wrapping.
  float img[W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = (float)((x * 5 + y * 3) % 16);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaChannelFormatDesc gd;
  cudaExtent ext;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&gd, &ext, &flags, arr));
  printf("array: %dx%dx%d flags=%u desc=(%d,%d,%d,%d,%d)\n", (int)ext.width, (int)ext.height, (int)ext.depth, flags, gd.x, gd.y, gd.z, gd.w, (int)gd.f);
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  cudaResourceDesc back;
  CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
  sample2D<<<grid, block>>>(tex, dout, OW, OH);
  CHECK(cudaMemcpy(out, dout, OW * OH * sizeof(float), cudaMemcpyDeviceToHost));
  printf("linear2d: %08x same-array=%d out[0]=%g out[100]=%g\n", hashf(out, OW * OH), back.res.array.array == arr, out[0], out[100]);
  CHECK(cudaDestroyTextureObject(tex));

  // Pitch-linear unsigned bytes read as normalized floats, linear filtering, clamping.
  const int PW = 37, PH = 11;
  unsigned char bytes[PW * PH];
  for (int y = 0; y < PH; y++)
    for (int x = 0; x < PW; x++)
      bytes[y * PW + x] = (unsigned char)(x * 37 + y * 11);
  unsigned char *pitched;
  size_t pitch;
  CHECK(cudaMallocPitch(&pitched, &pitch, PW, PH));
  CHECK(cudaMemcpy2D(pitched, pitch, bytes, PW, PW, PH, cudaMemcpyHostToDevice));
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = pitched;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<unsigned char>();
  rd.res.pitch2D.width = PW;
  rd.res.pitch2D.height = PH;
  rd.res.pitch2D.pitchInBytes = pitch;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  samplePitch<<<grid, block>>>(tex, dout, OW, OH);
  CHECK(cudaMemcpy(out, dout, OW * OH * sizeof(float), cudaMemcpyDeviceToHost));
  printf("pitch: %08x\n", hashf(out, OW * OH));
  CHECK(cudaDestroyTextureObject(tex));

  // A layered array, filled with cudaMemcpy3D; linear filtering, normalized, mirror.
  float layers[L * W * H];
  for (int l = 0; l < L; l++)
    for (int i = 0; i < W * H; i++)
      layers[l * W * H + i] = (float)((i * 7 + l * 5) % 32) * 0.5f;
  cudaArray_t larr;
  CHECK(cudaMalloc3DArray(&larr, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(layers, W * sizeof(float), W, H);
  p.dstArray = larr;
  p.extent = make_cudaExtent(W, H, L);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = larr;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeMirror;
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  sampleLayered<<<grid, block>>>(tex, dout, OW, OH, L);
  CHECK(cudaMemcpy(out, dout, L * OW * OH * sizeof(float), cudaMemcpyDeviceToHost));
  printf("layered: %08x\n", hashf(out, L * OW * OH));
  CHECK(cudaDestroyTextureObject(tex));

  // A cubemap: each face's texel centers read back the face.
  float cube[6 * W * W], cubeOut[6 * W * W];
  for (int i = 0; i < 6 * W * W; i++)
    cube[i] = (float)i;
  cudaArray_t carr;
  CHECK(cudaMalloc3DArray(&carr, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap));
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(cube, W * sizeof(float), W, W);
  p.dstArray = carr;
  p.extent = make_cudaExtent(W, W, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  rd.res.array.array = carr;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 1;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  sampleCube<<<6, dim3(W, W)>>>(tex, dout, W);
  CHECK(cudaMemcpy(cubeOut, dout, sizeof cubeOut, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 6 * W * W; i++)
    bad += cubeOut[i] != cube[i];
  printf("cubemap: %08x mismatches=%d\n", hashf(cubeOut, 6 * W * W), bad);
  CHECK(cudaDestroyTextureObject(tex));

  // A surface written by a kernel, read back through a texture and copied out.
  const int SW = 16, SH = 12;
  cudaArray_t sarr;
  CHECK(cudaMallocArray(&sarr, &fd, SW, SH, cudaArraySurfaceLoadStore));
  rd.res.array.array = sarr;
  cudaSurfaceObject_t surf;
  CHECK(cudaCreateSurfaceObject(&surf, &rd));
  writeSurface<<<dim3(2, 2), block>>>(surf, SW, SH);
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  readPoint<<<dim3(2, 2), block>>>(tex, dout, SW, SH);
  CHECK(cudaMemcpy(out, dout, SW * SH * sizeof(float), cudaMemcpyDeviceToHost));
  float copied[SW * SH];
  CHECK(cudaMemcpy2DFromArray(copied, SW * sizeof(float), sarr, 0, 0, SW * sizeof(float), SH, cudaMemcpyDeviceToHost));
  printf("surface: %08x copied=%08x out[17]=%g\n", hashf(out, SW * SH), hashf(copied, SW * SH), out[17]);
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaDestroySurfaceObject(surf));

  // A legacy texture reference bound to the first array, clamping (CUDA 12 has no texture
  // references: a texture object does the same there).
  int ints[64], *dints, iout[64], *diout;
  for (int i = 0; i < 64; i++)
    ints[i] = i * i - 7;
  CHECK(cudaMalloc(&dints, sizeof ints));
  CHECK(cudaMalloc(&diout, sizeof iout));
  CHECK(cudaMemcpy(dints, ints, sizeof ints, cudaMemcpyHostToDevice));
#if CUDART_VERSION < 12000
  texRef2D.addressMode[0] = texRef2D.addressMode[1] = cudaAddressModeClamp;
  texRef2D.filterMode = cudaFilterModeLinear;
  texRef2D.normalized = 1;
  CHECK(cudaBindTextureToArray(texRef2D, arr));
  sampleRef2D<<<grid, block>>>(dout, OW, OH);
  CHECK(cudaBindTexture(NULL, texRef1D, dints, sizeof ints));
  fetchRef1D<<<1, 64>>>(diout, 64);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaUnbindTexture(texRef2D));
  CHECK(cudaUnbindTexture(texRef1D));
#else
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  sample2D<<<grid, block>>>(tex, dout, OW, OH);
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = dints;
  rd.res.linear.desc = cudaCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = sizeof ints;
  memset(&td, 0, sizeof td);
  cudaTextureObject_t tex1;
  CHECK(cudaCreateTextureObject(&tex1, &rd, &td, NULL));
  fetchObj1D<<<1, 64>>>(tex1, diout, 64);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaDestroyTextureObject(tex1));
#endif
  CHECK(cudaMemcpy(out, dout, OW * OH * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost));
  long isum = 0;
  for (int i = 0; i < 64; i++)
    isum += (long)iout[i] * (i + 1);
  printf("texref: %08x fetch=%ld\n", hashf(out, OW * OH), isum);

  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(larr));
  CHECK(cudaFreeArray(carr));
  CHECK(cudaFreeArray(sarr));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(dints));
  CHECK(cudaFree(diout));
  printf("done\n");
  return 0;
}
