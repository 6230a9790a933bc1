#ifndef CSWIFTLOADER_RENDER_CALL_COUNTER_H
#define CSWIFTLOADER_RENDER_CALL_COUNTER_H

/// SDL render calls made by this process since it started (any thread), counted by this
/// target's definitions of them in the executable, which forward to SDL's: draws
/// (`SDL_RenderCopy`, `...CopyF`, `...CopyEx`, `...CopyExF`, `SDL_RenderGeometry`,
/// `SDL_RenderFillRect(s)`, `...F`, `SDL_RenderClear`) ...
unsigned long long crendercalls_draws(void);

/// ... and the rest that change what the renderer does or holds: texture modulation and
/// uploads (`SDL_SetTextureColorMod`, `SDL_SetTextureAlphaMod`, `SDL_UpdateTexture`,
/// `SDL_LockTexture`), render state (`SDL_RenderSetScale`, `SDL_SetRenderDrawColor`,
/// `SDL_SetRenderDrawBlendMode`) and `SDL_RenderFlush`. Getters are not counted.
unsigned long long crendercalls_others(void);

#endif
