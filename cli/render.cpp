#include "render.h"

#include <png.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <stdexcept>

#include "error.h"
#include "file_io.h"

namespace tb {

namespace {

void check_frame(const Frame& f) {
  auto bad = [](const std::string& why) { throw InputError("cannot render frame: " + why); };
  if (f.width <= 0 || f.height <= 0) bad("empty size");
  if (f.cells.size() != static_cast<std::size_t>(f.width) * f.height) bad("cell count is not width x height");
  if (f.hidden_rows < 0 || f.hidden_rows > f.height) bad("hidden rows out of range");
  if (std::any_of(f.cells.begin(), f.cells.end(), [](std::uint8_t v) { return v > PIECE_NB; }))
    bad("a cell value above 7");
}

// A frame as palette indices, one per pixel.  Cell (c, r) is the square of pixels
// x in [c * cp + 1, c * cp + cp - 1], y in [(H - 1 - r) * cp + 1, ...]; every x or y that is
// a multiple of cp is a grid line.
struct Raster {
  int width = 0, height = 0;
  std::vector<std::uint8_t> index;  // (height, width) row-major, top row first
};

Raster rasterize(const Frame& f, int cp) {
  check_frame(f);
  if (cp < 2 || cp > 256) throw InputError("cell size " + std::to_string(cp) + " is out of range 2..256 pixels");
  Raster img{f.width * cp + 1, f.height * cp + 1, {}};
  img.index.resize(static_cast<std::size_t>(img.width) * img.height);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      std::uint8_t& px = img.index[static_cast<std::size_t>(y) * img.width + x];
      if (x % cp == 0 || y % cp == 0) {
        px = kGridIndex;
        continue;
      }
      const int r = f.height - 1 - y / cp, c = x / cp;
      const std::uint8_t v = f.cells[static_cast<std::size_t>(r) * f.width + c];
      px = static_cast<std::uint8_t>(r >= f.height - f.hidden_rows ? kHiddenIndex + v : v);
    }
  return img;
}

// ---------------------------------------------------------------------------------------
// GIF89a (https://www.w3.org/Graphics/GIF/spec-gif89a.txt), LZW as in its Appendix F.

constexpr int kMinCodeSize = 5;  // palette indices are 5 bits (kPaletteSize = 32)
constexpr int kMaxCode = 4095;   // codes are at most 12 bits

void put16(std::string& out, int v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}

// Codes packed least significant bit first.
class BitWriter {
 public:
  void put(int code, int bits) {
    acc_ |= static_cast<std::uint32_t>(code) << count_;
    for (count_ += bits; count_ >= 8; count_ -= 8, acc_ >>= 8) bytes_ += static_cast<char>(acc_ & 0xff);
  }
  std::string finish() {
    if (count_ > 0) bytes_ += static_cast<char>(acc_ & 0xff);
    count_ = 0;
    acc_ = 0;
    return std::move(bytes_);
  }

 private:
  std::uint32_t acc_ = 0;
  int count_ = 0;
  std::string bytes_;
};

// The code stream of one image.  The dictionary is a table (code, next index) -> code, 0 when
// absent.  Code width grows when the code just added needs one more bit, which is where the
// decoder, one code behind, grows too; when code 4095 is taken a clear code starts over.
std::string lzw_encode(const std::vector<std::uint8_t>& pixels) {
  constexpr int alphabet = 1 << kMinCodeSize, clear = alphabet, stop = clear + 1;
  std::vector<std::uint16_t> child(static_cast<std::size_t>(kMaxCode + 1) * alphabet);  // (4096, alphabet)
  BitWriter bits;
  int width = kMinCodeSize + 1, next = stop + 1;
  bits.put(clear, width);
  int prefix = pixels[0];
  for (std::size_t i = 1; i < pixels.size(); ++i) {
    const int k = pixels[i];
    std::uint16_t& slot = child[static_cast<std::size_t>(prefix) * alphabet + k];
    if (slot != 0) {
      prefix = slot;
      continue;
    }
    bits.put(prefix, width);
    const int code = next++;
    slot = static_cast<std::uint16_t>(code);
    if (code == kMaxCode) {
      bits.put(clear, width);
      std::fill(child.begin(), child.end(), 0);
      width = kMinCodeSize + 1;
      next = stop + 1;
    } else if (code >= (1 << width)) {
      ++width;
    }
    prefix = k;
  }
  bits.put(prefix, width);
  bits.put(stop, width);
  return bits.finish();
}

// Data sub-blocks: a length byte (1..255) before each piece, a zero-length block after.
void put_sub_blocks(std::string& out, const std::string& data) {
  for (std::size_t at = 0; at < data.size(); at += 255) {
    const std::size_t n = std::min<std::size_t>(255, data.size() - at);
    out += static_cast<char>(n);
    out.append(data, at, n);
  }
  out += '\0';
}

void put_gif_header(std::string& out, int width, int height) {
  out += "GIF89a";
  put16(out, width);
  put16(out, height);
  out += static_cast<char>(0xF4);  // global table, 8-bit color resolution, 2^(4+1) entries
  out += '\0';                     // background color index
  out += '\0';                     // square pixels
  for (const Rgb& c : kPalette) {
    out += static_cast<char>(c.r);
    out += static_cast<char>(c.g);
    out += static_cast<char>(c.b);
  }
  // NETSCAPE2.0 application extension: loop count 0 = forever.
  out += "\x21\xFF\x0B";
  out += "NETSCAPE2.0";
  out += "\x03\x01";
  put16(out, 0);
  out += '\0';
}

void put_gif_image(std::string& out, const Raster& img, int delay_cs) {
  out += "\x21\xF9\x04";
  out += '\x04';  // disposal 1: leave the frame in place; no transparency
  put16(out, delay_cs);
  out += '\0';
  out += '\0';
  out += '\x2C';  // image descriptor: the whole screen, no local table, not interlaced
  put16(out, 0);
  put16(out, 0);
  put16(out, img.width);
  put16(out, img.height);
  out += '\0';
  out += static_cast<char>(kMinCodeSize);
  put_sub_blocks(out, lzw_encode(img.index));
}

}  // namespace

std::string render_text(const Frame& f) {
  check_frame(f);
  std::string s;
  for (int r = f.height - 1; r >= 0; --r) {
    for (int c = 0; c < f.width; ++c) {
      const std::uint8_t v = f.cells[static_cast<std::size_t>(r) * f.width + c];
      s += v == 0 ? '.' : kPieceChar[v - 1];
    }
    s += '\n';
    if (r == f.height - f.hidden_rows && r > 0) s += std::string(f.width, '-') + '\n';
  }
  if (!f.caption.empty()) s += f.caption + '\n';
  return s;
}

void write_png(const std::string& path, const Frame& f, int cell_pixels) {
  const Raster img = rasterize(f, cell_pixels);
  std::vector<std::uint8_t> rgb;  // (height, width, 3)
  rgb.reserve(img.index.size() * 3);
  for (std::uint8_t i : img.index) rgb.insert(rgb.end(), {kPalette[i].r, kPalette[i].g, kPalette[i].b});

  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(img.width);
  image.height = static_cast<png_uint_32>(img.height);
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;  // first call: the size; second: the bytes
  if (png_image_write_to_memory(&image, nullptr, &size, 0, rgb.data(), 0, nullptr)) {
    std::string bytes(size, '\0');
    if (png_image_write_to_memory(&image, bytes.data(), &size, 0, rgb.data(), 0, nullptr)) {
      bytes.resize(size);
      return write_file_atomically(path, bytes);
    }
  }
  const std::string why = image.message;
  png_image_free(&image);
  throw RunError("cannot encode PNG '" + path + "': " + why);
}

void write_gif(const std::string& path, const std::vector<Frame>& frames, int cell_pixels, int delay_cs) {
  if (frames.empty()) throw InputError("cannot write GIF '" + path + "': no frames");
  if (delay_cs < 0 || delay_cs > 0xffff) throw InputError("GIF frame delay out of range");
  std::string out;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Raster img = rasterize(frames[i], cell_pixels);
    if (img.width > 0xffff || img.height > 0xffff) throw InputError("GIF larger than 65535 pixels");
    if (i == 0) put_gif_header(out, img.width, img.height);
    if (frames[i].width != frames[0].width || frames[i].height != frames[0].height)
      throw InputError("cannot write GIF '" + path + "': frame " + std::to_string(i) +
                                  " differs in size from frame 0");
    put_gif_image(out, img, delay_cs);
  }
  out += '\x3B';
  write_file_atomically(path, out);
}

// ---------------------------------------------------------------------------------------
// ColorBoard

void ColorBoard::lock(Placement pl, int row) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  assert(pl.column + o.width <= kMaxWidth && row + o.height <= kRows);
  for (int i = 0; i < o.width; ++i)
    for (Word m = o.mask[i]; m != 0; m &= m - 1)
      cells[(row + std::countr_zero(m)) * kMaxWidth + pl.column + i] = static_cast<std::uint8_t>(pl.piece + 1);
}

int ColorBoard::clear_full_rows(int width) {
  int kept = 0;
  for (int r = 0; r < kRows; ++r) {
    const auto row = cells.begin() + r * kMaxWidth;
    if (std::all_of(row, row + width, [](std::uint8_t v) { return v != 0; })) continue;
    if (kept != r) std::copy(row, row + kMaxWidth, cells.begin() + kept * kMaxWidth);
    ++kept;
  }
  std::fill(cells.begin() + kept * kMaxWidth, cells.end(), 0);
  return kRows - kept;
}

Board ColorBoard::occupancy() const {
  Board b;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kMaxWidth; ++c)
      if (at(c, r) != 0) b.cols[c] |= Word{1} << r;
  return b;
}

Frame ColorBoard::frame(int width, int height, int hidden_rows, std::string caption) const {
  Frame f{width, height, hidden_rows, {}, std::move(caption)};
  f.cells.reserve(static_cast<std::size_t>(width) * height);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) f.cells.push_back(at(c, r));
  return f;
}

}  // namespace tb
