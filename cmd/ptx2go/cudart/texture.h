// The C types of CUDA arrays, textures and surfaces that ptx2go's drop-in takes and fills
// (texture.go, drvtexture.go), with the layouts of CUDA 11.8's and 12.4's headers
// (driver_types.h, texture_types.h, surface_types.h, cuda.h): the same in both, but for
// cudaTextureDesc's seamlessCubemap (CUDA 12; cudaTextureDesc_v2 in 11.8), which the drop-in
// never reads, and textureReference, which CUDA 12 dropped.
#ifndef PTX2GO_TEXTURE_H
#define PTX2GO_TEXTURE_H

#include <stddef.h>

struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f; // enum cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float
};

// cudaResourceDesc. resType (enum cudaResourceType): 0 array, 1 mipmapped array, 2 linear,
// 3 pitch2D.
struct cudaResourceDesc {
    int resType;
    union {
        struct { void *array; } array;
        struct { void *mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
    } res;
};

struct cudaTextureDesc {
    int addressMode[3]; // enum cudaTextureAddressMode: wrap, clamp, mirror, border
    int filterMode;     // enum cudaTextureFilterMode: point, linear
    int readMode;       // enum cudaTextureReadMode: element type, normalized float
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
};

// textureReference (CUDA 11.8 texture_types.h): the host shadow of a texture<> variable,
// which nvcc's host code registers with __cudaRegisterTexture. The read mode is not in it: it
// is __cudaRegisterTexture's norm.
struct textureReference {
    int normalized;
    int filterMode;
    int addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
    int sRGB;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int __cudaReserved[14];
};

// The driver API's (cuda.h). CUarray_format: 0x01/0x02/0x03 unsigned 8/16/32-bit, 0x08/0x09/0x0a
// signed, 0x10 half, 0x20 float.
struct ptx2go_arrayDesc {
    size_t Width, Height;
    int Format;
    unsigned int NumChannels;
};
struct ptx2go_array3DDesc {
    size_t Width, Height, Depth;
    int Format;
    unsigned int NumChannels;
    unsigned int Flags;
};
struct ptx2go_resourceDesc {
    int resType; // CUresourcetype, numbered as cudaResourceType
    union {
        struct { void *hArray; } array;
        struct { void *hMipmappedArray; } mipmap;
        struct { unsigned long long devPtr; int format; unsigned int numChannels; size_t sizeInBytes; } linear;
        struct { unsigned long long devPtr; int format; unsigned int numChannels; size_t width, height, pitchInBytes; } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
};
struct ptx2go_textureDesc {
    int addressMode[3];
    int filterMode;
    unsigned int flags; // CU_TRSF_*
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
};

#endif
