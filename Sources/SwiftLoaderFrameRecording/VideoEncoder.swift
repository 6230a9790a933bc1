import CSwiftLoaderFFmpeg
import Foundation

/// H.264 in MP4, or VP9 in WebM, through libavcodec and libavformat; frames converted from
/// ARGB to yuv420p or yuv444p (`VideoPixelFormat`) by libswscale.
///
/// - Codec: libx264 when this FFmpeg build has it (Debian's does), otherwise whatever H.264
///   encoder it has; libvpx-vp9 for WebM. Constant quality, CRF 8 for both (High profile
///   for x264 at yuv420p, High 4:4:4 Predictive at yuv444p: CRF 0 would switch to a lossless
///   profile that browsers do not play).
/// - At yuv420p quality is bounded by the chroma subsampling, not the codec: a 4-pixel ring
///   stroke is two chroma samples wide, so saturated edges bleed. The conversion is the best
///   swscale offers (Lanczos chroma filtering, chroma read from every input pixel, accurate
///   rounding), and at CRF 8 the codec adds little to its loss. yuv444p keeps every chroma
///   sample. The README has each format's figures.
/// - Colour: BT.601 limited range (swscale's default matrix), tagged so in the stream so
///   players convert back with the same matrix.
/// - Time: the codec's time base is the clock's tick (`RecordingSchedule.Clock`), frame `k`
///   has `pts = clock.tick(ofFrame: k)`, the instant the recording drew it for. Once the
///   header is written the muxer's own time base is known (MP4: the tick, doubled until there
///   are 10000 a second; WebM: 1 ms); one that cannot hold every tick exactly is an error
///   rather than frames shown at rounded times.
/// - MP4 gets `+faststart` (the index first) so it plays while it downloads.
final class VideoEncoder: FrameEncoder {
  private var output: UnsafeMutablePointer<AVFormatContext>?
  private var codec: UnsafeMutablePointer<AVCodecContext>?
  private var stream: UnsafeMutablePointer<AVStream>?
  private var scaler: OpaquePointer?
  private var picture: UnsafeMutablePointer<AVFrame>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private let format: RecordingFormat
  private let width: Int
  private let height: Int
  private let clock: RecordingSchedule.Clock

  init(
    format: RecordingFormat, width: Int, height: Int, clock: RecordingSchedule.Clock,
    pixelFormat: VideoPixelFormat, path: String
  ) throws(RecordingError) {
    self.format = format
    self.width = width
    self.height = height
    self.clock = clock
    let pixels =
      switch pixelFormat {
      case .yuv420p: AV_PIX_FMT_YUV420P
      case .yuv444p: AV_PIX_FMT_YUV444P
      }
    let name = format.rawValue
    // Failures reach the caller as errors; libav's banners and notes would only be noise.
    av_log_set_level(AV_LOG_ERROR)
    do throws(RecordingError) {
      var oc: UnsafeMutablePointer<AVFormatContext>?
      try check(avformat_alloc_output_context2(&oc, nil, name, path), "choosing the \(name) muxer")
      guard let oc else { throw .encode("\(name): no muxer") }
      output = oc

      let encoder: UnsafePointer<AVCodec>? =
        format == .mp4
        ? avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264)
        : avcodec_find_encoder_by_name("libvpx-vp9") ?? avcodec_find_encoder(AV_CODEC_ID_VP9)
      guard let encoder else {
        throw .encode(
          "\(name): this FFmpeg build has no \(format == .mp4 ? "H.264" : "VP9") encoder")
      }
      guard let st = avformat_new_stream(oc, nil), let c = avcodec_alloc_context3(encoder) else {
        throw .encode("\(name): out of memory")
      }
      stream = st
      codec = c
      // The average rate, exactly: framesPerCycle frames every ticksPerCycle ticks.
      var rate = AVRational()
      _ = av_reduce(
        &rate.num, &rate.den, Int64(clock.framesPerCycle) * Int64(clock.ticksPerSecond),
        Int64(clock.ticksPerCycle), Int64(Int32.max))
      c.pointee.width = Int32(width)
      c.pointee.height = Int32(height)
      c.pointee.pix_fmt = pixels
      c.pointee.time_base = AVRational(num: 1, den: Int32(clock.ticksPerSecond))
      c.pointee.framerate = rate
      c.pointee.gop_size = 250
      c.pointee.colorspace = AVCOL_SPC_SMPTE170M
      c.pointee.color_primaries = AVCOL_PRI_SMPTE170M
      c.pointee.color_trc = AVCOL_TRC_SMPTE170M
      c.pointee.color_range = AVCOL_RANGE_MPEG
      if format == .mp4 {
        av_opt_set(c.pointee.priv_data, "preset", "medium", 0)
        av_opt_set(c.pointee.priv_data, "crf", "8", 0)
      } else {
        c.pointee.bit_rate = 0
        av_opt_set(c.pointee.priv_data, "crf", "8", 0)
        av_opt_set(c.pointee.priv_data, "deadline", "good", 0)
        av_opt_set(c.pointee.priv_data, "cpu-used", "4", 0)
        av_opt_set(c.pointee.priv_data, "row-mt", "1", 0)
      }
      if oc.pointee.oformat.pointee.flags & cffmpeg_fmt_globalheader() != 0 {
        c.pointee.flags |= cffmpeg_codec_flag_global_header()
      }
      try check(avcodec_open2(c, encoder, nil), "opening the encoder")
      try check(avcodec_parameters_from_context(st.pointee.codecpar, c), "stream parameters")
      st.pointee.time_base = c.pointee.time_base
      st.pointee.avg_frame_rate = rate

      try check(avio_open(&oc.pointee.pb, path, cffmpeg_io_write_flag()), "creating '\(path)'")
      var options: OpaquePointer?
      if format == .mp4 { av_dict_set(&options, "movflags", "+faststart", 0) }
      let header = avformat_write_header(oc, &options)
      av_dict_free(&options)
      try check(header, "writing the header")
      let base = st.pointee.time_base
      guard base.num > 0, Int(base.den) % (clock.ticksPerSecond * Int(base.num)) == 0 else {
        throw .encode(
          "\(name): the stream's time base \(base.num)/\(base.den) s cannot hold frame starts"
            + " on a 1/\(clock.ticksPerSecond) s grid")
      }

      guard let f = av_frame_alloc(), let p = av_packet_alloc() else {
        throw .encode("\(name): out of memory")
      }
      picture = f
      packet = p
      f.pointee.format = pixels.rawValue
      f.pointee.width = Int32(width)
      f.pointee.height = Int32(height)
      try check(av_frame_get_buffer(f, 0), "allocating a frame")
      scaler = sws_getContext(
        Int32(width), Int32(height), AV_PIX_FMT_BGRA, Int32(width), Int32(height),
        pixels, cffmpeg_sws_encoder_flags(), nil, nil, nil)
      guard scaler != nil else {
        throw .encode("\(name): cannot convert ARGB to \(pixelFormat.rawValue)")
      }
    } catch {
      cancel()
      throw error
    }
  }

  /// Throws for a negative libav result, with its message.
  private func check(_ result: Int32, _ what: String) throws(RecordingError) {
    guard result < 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 256)
    let message = buffer.withUnsafeMutableBufferPointer { b in
      _ = b.baseAddress?.withMemoryRebound(to: CChar.self, capacity: b.count) {
        av_strerror(result, $0, b.count)
      }
      return String(decoding: b.prefix { $0 != 0 }, as: UTF8.self)
    }
    throw .encode("\(format.rawValue): \(what) failed: \(message)")
  }

  func append(_ frame: Frame) throws(RecordingError) {
    guard let picture, let scaler else { throw .encode("\(format.rawValue): the file is closed") }
    try check(av_frame_make_writable(picture), "frame \(frame.index)")
    var source: [UnsafePointer<UInt8>?] = [
      frame.pixels.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
    ]
    var strides: [Int32] = [Int32(frame.pitch), 0, 0, 0]
    let planes = withUnsafeMutablePointer(to: &picture.pointee.data) {
      $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
    }
    let lines = withUnsafeMutablePointer(to: &picture.pointee.linesize) {
      $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
    }
    let rows = sws_scale(scaler, &source, &strides, 0, Int32(height), planes, lines)
    guard rows == Int32(height) else {
      throw .encode("\(format.rawValue): converting frame \(frame.index) failed")
    }
    picture.pointee.pts = Int64(clock.tick(ofFrame: frame.index))
    try send(picture)
  }

  /// Sends `frame` (nil: end of stream) and writes every packet the encoder gives back.
  private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(RecordingError) {
    guard let codec, let output, let stream, let packet else {
      throw .encode("\(format.rawValue): the file is closed")
    }
    try check(avcodec_send_frame(codec, frame), "encoding")
    while true {
      let r = avcodec_receive_packet(codec, packet)
      if r == cffmpeg_error_eagain() || r == cffmpeg_error_eof() { return }
      try check(r, "encoding")
      av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
      packet.pointee.stream_index = stream.pointee.index
      try check(av_interleaved_write_frame(output, packet), "writing a packet")
    }
  }

  func finish(frameCount: Int) throws(RecordingError) {
    defer { cancel() }
    try send(nil)
    guard let output else { throw .encode("\(format.rawValue): the file is closed") }
    try check(av_write_trailer(output), "writing the trailer")
    try check(avio_closep(&output.pointee.pb), "closing the file")
  }

  /// Closes the file and frees everything, writing no trailer: `finish` has written it, or
  /// the file is abandoned. `av_write_trailer` may run only once per context: a second call
  /// after a failed one (a full disk) reads muxer state the first one freed.
  /// `avformat_free_context` runs the muxer's own clean-up.
  func cancel() {
    if let output {
      if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
      avformat_free_context(output)
    }
    output = nil
    avcodec_free_context(&codec)
    av_frame_free(&picture)
    av_packet_free(&packet)
    if let scaler { sws_freeContext(scaler) }
    scaler = nil
    stream = nil
  }
}
