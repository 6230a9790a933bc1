import CSwiftLoaderFFmpeg
import CSwiftLoaderGIF
import CSwiftLoaderWebP
import Foundation

/// Decoders for the files `FrameRecorder` writes, through the same libraries' read sides, so
/// tests compare what a player would show with what was drawn. Frames are `0xFFRRGGBB`.
enum Decoded {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Every GIF frame composed onto the canvas as a player does (the file's frames use
  /// disposal "do not dispose", transparent pixels keeping what is shown), with each frame's
  /// delay in centiseconds and whether the file repeats (a NETSCAPE2.0 block).
  static func gif(_ path: String) throws -> (frames: [[UInt32]], delays: [Int], loops: Bool) {
    var error: Int32 = 0
    guard let g = DGifOpenFileName(path, &error) else {
      throw Failure(description: "DGifOpenFileName(\(path)): \(error)")
    }
    defer { DGifCloseFile(g, &error) }
    guard DGifSlurp(g) == GIF_OK else {
      throw Failure(description: "DGifSlurp: \(g.pointee.Error)")
    }
    let w = Int(g.pointee.SWidth)
    let h = Int(g.pointee.SHeight)
    var canvas = [UInt32](repeating: 0xFF00_0000, count: w * h)
    var frames: [[UInt32]] = []
    var delays: [Int] = []
    var loops = false
    for i in 0..<Int(g.pointee.ImageCount) {
      let image = g.pointee.SavedImages[i]
      let d = image.ImageDesc
      guard let map = d.ColorMap ?? g.pointee.SColorMap, let bits = image.RasterBits else {
        throw Failure(description: "frame \(i) has no colour table or pixels")
      }
      for e in 0..<Int(image.ExtensionBlockCount) {
        let block = image.ExtensionBlocks[e]
        if block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11,
          String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self)
            == "NETSCAPE2.0"
        {
          loops = true
        }
      }
      var gcb = GraphicsControlBlock()
      guard DGifSavedExtensionToGCB(g, Int32(i), &gcb) == GIF_OK else {
        throw Failure(description: "frame \(i) has no graphics control block")
      }
      delays.append(Int(gcb.DelayTime))
      for y in 0..<Int(d.Height) {
        for x in 0..<Int(d.Width) {
          let k = Int(bits[y * Int(d.Width) + x])
          if k == Int(gcb.TransparentColor) { continue }
          guard k < Int(map.pointee.ColorCount) else { throw Failure(description: "bad index") }
          let c = map.pointee.Colors[k]
          canvas[(Int(d.Top) + y) * w + Int(d.Left) + x] =
            0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
        }
      }
      frames.append(canvas)
    }
    return (frames, delays, loops)
  }

  /// Every WebP frame as libwebp's animation decoder composes it, with its end timestamp (ms).
  static func webp(_ path: String) throws -> (
    frames: [[UInt32]], timestamps: [Int], loopCount: Int
  ) {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    return try bytes.withUnsafeBytes { raw in
      var data = WebPData(
        bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
      var options = WebPAnimDecoderOptions()
      guard WebPAnimDecoderOptionsInit(&options) != 0 else {
        throw Failure(description: "WebPAnimDecoderOptionsInit")
      }
      options.color_mode = MODE_BGRA
      guard let dec = WebPAnimDecoderNew(&data, &options) else {
        throw Failure(description: "WebPAnimDecoderNew: not an animated WebP")
      }
      defer { WebPAnimDecoderDelete(dec) }
      var info = WebPAnimInfo()
      guard WebPAnimDecoderGetInfo(dec, &info) != 0 else {
        throw Failure(description: "WebPAnimDecoderGetInfo")
      }
      let n = Int(info.canvas_width * info.canvas_height)
      var frames: [[UInt32]] = []
      var stamps: [Int] = []
      while WebPAnimDecoderHasMoreFrames(dec) != 0 {
        var buf: UnsafeMutablePointer<UInt8>?
        var ts: Int32 = 0
        guard WebPAnimDecoderGetNext(dec, &buf, &ts) != 0, let buf else {
          throw Failure(description: "WebPAnimDecoderGetNext")
        }
        frames.append(
          buf.withMemoryRebound(to: UInt32.self, capacity: n) {
            Array(UnsafeBufferPointer(start: $0, count: n))
          })
        stamps.append(Int(ts))
      }
      return (frames, stamps, Int(info.loop_count))
    }
  }

  /// Every frame of the file's video stream, converted to ARGB by libswscale, with the time
  /// the file shows it (its presentation timestamp, as an exact fraction of a second: ticks
  /// and the stream's time base), the codec's name and the stream's pixel format.
  static func video(_ path: String) throws -> (
    frames: [[UInt32]], shown: [(ticks: Int64, base: AVRational)], codec: String,
    pixelFormat: AVPixelFormat
  ) {
    var input: UnsafeMutablePointer<AVFormatContext>?
    guard avformat_open_input(&input, path, nil, nil) >= 0, let ic = input else {
      throw Failure(description: "avformat_open_input(\(path))")
    }
    defer { avformat_close_input(&input) }
    guard avformat_find_stream_info(ic, nil) >= 0 else {
      throw Failure(description: "avformat_find_stream_info")
    }
    var decoder: UnsafePointer<AVCodec>?
    let index = av_find_best_stream(ic, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
    guard index >= 0, let decoder, let stream = ic.pointee.streams[Int(index)] else {
      throw Failure(description: "no video stream")
    }
    var ctx = avcodec_alloc_context3(decoder)
    defer { avcodec_free_context(&ctx) }
    guard let ctx, avcodec_parameters_to_context(ctx, stream.pointee.codecpar) >= 0,
      avcodec_open2(ctx, decoder, nil) >= 0
    else { throw Failure(description: "cannot open the decoder") }
    var frame = av_frame_alloc()
    var packet = av_packet_alloc()
    defer {
      av_frame_free(&frame)
      av_packet_free(&packet)
    }
    guard let frame, let packet else { throw Failure(description: "out of memory") }
    var frames: [[UInt32]] = []
    var shown: [(ticks: Int64, base: AVRational)] = []
    let base = stream.pointee.time_base
    func drain() throws {
      while avcodec_receive_frame(ctx, frame) >= 0 {
        frames.append(try argb(frame))
        shown.append((frame.pointee.best_effort_timestamp, base))
        av_frame_unref(frame)
      }
    }
    while av_read_frame(ic, packet) >= 0 {
      if packet.pointee.stream_index == index {
        guard avcodec_send_packet(ctx, packet) >= 0 else {
          throw Failure(description: "avcodec_send_packet")
        }
        try drain()
      }
      av_packet_unref(packet)
    }
    avcodec_send_packet(ctx, nil)
    try drain()
    let name = String(cString: decoder.pointee.name)
    return (
      frames, shown, name, AVPixelFormat(rawValue: stream.pointee.codecpar.pointee.format)
    )
  }

  private static func argb(_ frame: UnsafeMutablePointer<AVFrame>) throws -> [UInt32] {
    let w = Int(frame.pointee.width)
    let h = Int(frame.pointee.height)
    guard
      let sws = sws_getContext(
        Int32(w), Int32(h), AVPixelFormat(rawValue: frame.pointee.format), Int32(w), Int32(h),
        AV_PIX_FMT_BGRA, cffmpeg_sws_decoder_flags(), nil, nil, nil)
    else { throw Failure(description: "sws_getContext") }
    defer { sws_freeContext(sws) }
    var out = [UInt32](repeating: 0, count: w * h)
    let rows = out.withUnsafeMutableBytes { o -> Int32 in
      var dst: [UnsafeMutablePointer<UInt8>?] = [
        o.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
      ]
      var dstStride: [Int32] = [Int32(w * 4), 0, 0, 0]
      return withUnsafePointer(to: &frame.pointee.data) { src in
        withUnsafePointer(to: &frame.pointee.linesize) { ls in
          src.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { s in
            ls.withMemoryRebound(to: Int32.self, capacity: 8) { l in
              sws_scale(sws, s, l, 0, Int32(h), &dst, &dstStride)
            }
          }
        }
      }
    }
    guard rows == h else { throw Failure(description: "sws_scale") }
    return out.map { $0 | 0xFF00_0000 }
  }
}
