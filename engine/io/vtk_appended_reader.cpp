#include "vtk_appended_reader.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "core/errors.hpp"
#include "core/text.hpp"

#ifdef KS_HAVE_ZLIB
#include <zlib.h>
#endif

namespace ks {

namespace {

// Reads fixed-size unsigned integers from the block, in the file's byte order, never past its end.
class Bytes {
 public:
  Bytes(std::string_view data, std::uint64_t pos, bool big_endian, const std::string& where)
      : data_(data), pos_(pos), big_(big_endian), where_(where) {}
  std::uint64_t pos() const { return pos_; }
  std::uint64_t left() const { return pos_ > data_.size() ? 0 : data_.size() - pos_; }
  std::string_view take(std::uint64_t n, const std::string& what) {
    if (pos_ > data_.size() || n > data_.size() - pos_)
      throw bad_input(where_,
                      "the appended data ends inside " + what + " (it needs " + std::to_string(n) + " bytes at offset " +
                          std::to_string(pos_) + " of " + std::to_string(data_.size()) + ")",
                      "a complete file (was it cut short?)");
    const std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::uint64_t integer(int size, const std::string& what) {
    const std::string_view s = take(size, what);
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= std::uint64_t(static_cast<unsigned char>(s[big_ ? size - 1 - i : i])) << (8 * i);
    return v;
  }

 private:
  std::string_view data_;
  std::uint64_t pos_;
  bool big_;
  const std::string& where_;
};

struct TypeInfo {
  int size;
  char kind;  // 'f' float, 'i' signed, 'u' unsigned
};

const std::map<std::string, TypeInfo>& types() {
  static const std::map<std::string, TypeInfo> t = {{"Float32", {4, 'f'}}, {"Float64", {8, 'f'}}, {"Int8", {1, 'i'}},  {"UInt8", {1, 'u'}},
                                                    {"Int16", {2, 'i'}},   {"UInt16", {2, 'u'}},  {"Int32", {4, 'i'}}, {"UInt32", {4, 'u'}},
                                                    {"Int64", {8, 'i'}},   {"UInt64", {8, 'u'}}};
  return t;
}

double value_of(const unsigned char* p, TypeInfo t, bool big) {
  unsigned char b[8];
  for (int i = 0; i < t.size; ++i) b[i] = p[big ? t.size - 1 - i : i];
  if (t.kind == 'f') {
    if (t.size == 4) {
      float f;
      std::memcpy(&f, b, 4);
      return f;
    }
    double d;
    std::memcpy(&d, b, 8);
    return d;
  }
  std::uint64_t u = 0;
  for (int i = 0; i < t.size; ++i) u |= std::uint64_t(b[i]) << (8 * i);
  if (t.kind == 'u') return double(u);
  const int shift = 64 - 8 * t.size;  // sign-extend
  return double(std::int64_t(u << shift) >> shift);
}

// The array's bytes: the blocks inflated, or the plain bytes after the size.
std::string array_bytes(Bytes& in, const VtkBinaryLayout& layout, std::uint64_t want, const std::string& where) {
  const int h = layout.header64 ? 8 : 4;
  if (!layout.compressed()) {
    const std::uint64_t n = in.integer(h, "the array's byte count");
    if (n != want)
      throw bad_input(where, "holds " + std::to_string(n) + " bytes for " + std::to_string(want) + " expected",
                      "one value per cell or point of the grid");
    return std::string(in.take(n, "the array's values"));
  }
#ifdef KS_HAVE_ZLIB
  const std::uint64_t blocks = in.integer(h, "the compression header"), block = in.integer(h, "the compression header"),
                      last = in.integer(h, "the compression header");
  // blocks - 1 full blocks and a last one of `last` bytes (0: full) make the array's bytes.
  const bool sane = blocks == 0 ? want == 0 : block > 0 && last <= block && blocks - 1 <= want / block;
  const std::uint64_t total = !sane || blocks == 0 ? 0 : (blocks - 1) * block + (last ? last : block);
  if (!sane || total != want)
    throw bad_input(where,
                    "its compression header gives " + std::to_string(blocks) + " blocks of " + std::to_string(block) + " bytes (the last " +
                        std::to_string(last) + ") for " + std::to_string(want) + " bytes of values",
                    "one value per cell or point of the grid");
  // The block table before it is made: a header claiming 2^27 blocks in a 512-byte file took 1 GB.
  if (blocks > in.left() / std::uint64_t(h))
    throw bad_input(where,
                    "its compression header claims " + std::to_string(blocks) + " blocks and the appended data holds " +
                        std::to_string(in.left()) + " bytes after it",
                    "a block size for each block, then the blocks (was the file cut short or edited?)");
  std::vector<std::uint64_t> sizes(blocks);
  std::uint64_t compressed = 0;
  for (auto& s : sizes) {
    s = in.integer(h, "the compression header's block sizes");
    compressed += std::min(s, in.left() + 1);  // the sum stays below 2^64; past the data it fails below
  }
  constexpr std::uint64_t kMaxInflation = 1032;  // zlib's largest ratio of inflated to deflated bytes
  if (compressed > in.left() || want / kMaxInflation > compressed + blocks)
    throw bad_input(where,
                    "its " + std::to_string(blocks) + " compressed blocks of " + std::to_string(compressed) + " bytes " +
                        (compressed > in.left() ? "run past the appended data's " + std::to_string(in.left()) + " bytes"
                                                : "cannot inflate to its " + std::to_string(want) + " bytes of values"),
                    "zlib data as vtkZLibDataCompressor writes it (was the file cut short or edited?)");
  std::string out(want, '\0');
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::string_view z = in.take(sizes[b], "compressed block " + std::to_string(b));
    uLongf n = uLongf(b + 1 == blocks ? total - b * block : block);
    const uLongf expected = n;
    if (uncompress(reinterpret_cast<Bytef*>(out.data() + b * block), &n, reinterpret_cast<const Bytef*>(z.data()), uLong(z.size())) !=
            Z_OK ||
        n != expected)
      throw bad_input(where,
                      "compressed block " + std::to_string(b) + " of " + std::to_string(blocks) + " does not inflate to " +
                          std::to_string(expected) + " bytes",
                      "zlib data as vtkZLibDataCompressor writes it");
  }
  return out;
#else
  throw bad_input(where, "is zlib-compressed and this build has no zlib",
                  "uncompressed or ASCII data (ParaView: File > Save Data, Compressor Type: None), or a build with zlib1g-dev");
#endif
}

}  // namespace

VtkBinaryLayout vtk_binary_layout(const xml::Tag& t, const std::string& where) {
  const auto attr = [&t](const char* key, const char* fallback) { return t.attrs.count(key) ? t.attrs.at(key) : std::string(fallback); };
  VtkBinaryLayout l;
  const std::string header = attr("header_type", "UInt32"), order = attr("byte_order", "LittleEndian");
  l.compressor = attr("compressor", "");
  if (header != "UInt32" && header != "UInt64") throw bad_input(where, "has header_type=\"" + cut(header, 40) + "\"", "UInt32 or UInt64");
  if (order != "LittleEndian" && order != "BigEndian")
    throw bad_input(where, "has byte_order=\"" + cut(order, 40) + "\"", "LittleEndian or BigEndian");
  if (l.compressed() && l.compressor != "vtkZLibDataCompressor" && l.compressor != "vtkLZ4DataCompressor" &&
      l.compressor != "vtkLZMADataCompressor")
    throw bad_input(where, "has compressor=\"" + cut(l.compressor, 60) + "\"",
                    "vtkZLibDataCompressor, vtkLZ4DataCompressor, vtkLZMADataCompressor or none");
  l.header64 = header == "UInt64";
  l.big_endian = order == "BigEndian";
  return l;
}

std::vector<double> read_appended_array(std::string_view appended, std::uint64_t offset, const std::string& type, std::uint64_t count,
                                        const VtkBinaryLayout& layout, const std::string& where) {
  const auto t = types().find(type);
  if (t == types().end())
    throw bad_input(where, "has type=\"" + type.substr(0, 40) + "\"", "Float32, Float64 or an integer type (Int8 to UInt64)");
  if (count > (std::uint64_t(1) << 60) / std::uint64_t(t->second.size))
    throw bad_input(where, "would hold " + std::to_string(count) + " values", "a grid of fewer cells");
  Bytes in(appended, offset, layout.big_endian, where);
  const std::string bytes = array_bytes(in, layout, count * t->second.size, where);
  std::vector<double> out(count);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::uint64_t i = 0; i < count; ++i) out[i] = value_of(p + i * t->second.size, t->second, layout.big_endian);
  return out;
}

}  // namespace ks
