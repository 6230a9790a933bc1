#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

// Macros Swift cannot import.
static inline int cffmpeg_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_io_write_flag(void) { return AVIO_FLAG_WRITE; }
static inline int cffmpeg_fmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int cffmpeg_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
// RGB to yuv420p or yuv444p: Lanczos chroma filtering from every input pixel, accurately rounded.
static inline int cffmpeg_sws_encoder_flags(void) {
  return SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP;
}
// YUV to RGB as a careful player does: chroma interpolated to every output pixel.
static inline int cffmpeg_sws_decoder_flags(void) {
  return SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT;
}

#endif
