#ifndef CSWIFTLOADERGL_H
#define CSWIFTLOADERGL_H

// The Khronos core-profile header (Debian's libgl-dev, which libsdl2-dev depends on): the GL
// constants and function pointer types the `gpu` backend uses. Declarations only: nothing is
// linked, every entry point is loaded at run time through SDL_GL_GetProcAddress, from the
// library SDL's renderer already loaded. OpenGL ES 3 shares these values and signatures.
#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>

#endif
