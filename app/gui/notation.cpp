#include "notation.hpp"

#include <QMap>
#include <cctype>
#include <cstddef>
#include <vector>

namespace ks::gui {

namespace {

enum class Place { Line, Sub, Sup };

struct Piece {
  QString text;
  Place place = Place::Line;
};

// Whole words only: "pi" is a letter, "pivot" is not.
const QMap<QString, QString>& letters() {
  static const QMap<QString, QString> map{
      {"alpha", "α"},  {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ε"}, {"eta", "η"},   {"theta", "θ"}, {"kappa", "κ"},
      {"lambda", "λ"}, {"mu", "μ"},   {"nu", "ν"},    {"xi", "ξ"},    {"pi", "π"},      {"rho", "ρ"},   {"sigma", "σ"}, {"tau", "τ"},
      {"phi", "φ"},    {"chi", "χ"},  {"psi", "ψ"},   {"omega", "ω"}, {"Gamma", "Γ"},   {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"},
      {"Sigma", "Σ"},  {"Phi", "Φ"},  {"Psi", "Ψ"},   {"Omega", "Ω"}, {"sqrt", "√"}};
  return map;
}

QString word(const QString& w, bool subscript) {
  if (subscript && w == "inf") return "∞";
  return letters().value(w, w);
}

bool isLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isNonAscii(char c) { return static_cast<unsigned char>(c) >= 0x80; }  // a byte of a UTF-8 sequence

// The run of characters from `i` that `keep` accepts.
std::string runFrom(const std::string& s, std::size_t& i, bool (*keep)(char)) {
  const std::size_t from = i;
  while (i < s.size() && keep(s[i])) ++i;
  return s.substr(from, i - from);
}

// The text at `i` kept as it is: one ASCII character, or a run of UTF-8 characters ("±", "…"),
// whose bytes are all non-ASCII, decoded whole.
QString keptFrom(const std::string& s, std::size_t& i) {
  if (isNonAscii(s[i])) return QString::fromUtf8(runFrom(s, i, isNonAscii));
  return QString(QLatin1Char(s[i++]));
}

// The words of `text` as letters (a subscript's or superscript's content).
QString convertedWords(const std::string& text, bool subscript) {
  QString out;
  for (std::size_t i = 0; i < text.size();) {
    if (isLetter(text[i])) {
      out += word(QString::fromStdString(runFrom(text, i, isLetter)), subscript);
    } else if (text[i] == '-') {
      out += QChar(0x2212);
      ++i;
    } else {
      out += keptFrom(text, i);
    }
  }
  return out;
}

// A minus right after a name marks the upstream state ("n-", "lambda-)"): not "t-1".
bool upstreamMinus(const std::string& s, std::size_t i) {
  return i < s.size() && s[i] == '-' && (i + 1 == s.size() || std::string(") /,]").find(s[i + 1]) != std::string::npos);
}

std::vector<Piece> parse(const std::string& s) {
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (isLetter(c)) {
      pieces.push_back({word(QString::fromStdString(runFrom(s, i, isLetter)), false)});
      if (upstreamMinus(s, i)) {
        pieces.push_back({QString(QChar(0x2212)), Place::Sub});
        ++i;
      }
    } else if ((c == '_' || c == '^') && i + 1 < s.size()) {
      const Place place = c == '_' ? Place::Sub : Place::Sup;
      ++i;
      std::string content;
      if (s[i] == '(') {
        const std::size_t close = s.find(')', i);
        const std::size_t end = close == std::string::npos ? s.size() : close;
        content = s.substr(i + 1, end - i - 1);
        i = close == std::string::npos ? s.size() : close + 1;
      } else {
        if (s[i] == '-') content = s.substr(i++, 1);
        content += runFrom(s, i, isAlnum);
      }
      pieces.push_back({convertedWords(content, place == Place::Sub), place});
    } else {
      pieces.push_back({keptFrom(s, i)});
    }
  }
  return pieces;
}

QChar scriptDigit(QChar c, Place place) {
  static const QString sub = "₀₁₂₃₄₅₆₇₈₉", sup = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  if (c.isDigit()) return (place == Place::Sub ? sub : sup)[c.digitValue()];
  if (c == QChar(0x2212)) return place == Place::Sub ? QChar(0x208B) : QChar(0x207B);
  return {};
}

}  // namespace

QString rich_notation(const std::string& label) {
  QString html;
  for (const Piece& p : parse(label)) {
    const QString text = p.text.toHtmlEscaped();
    if (p.place == Place::Sub) html += "<sub>" + text + "</sub>";
    else if (p.place == Place::Sup) html += "<sup>" + text + "</sup>";
    else html += text;
  }
  return html;
}

QString unicode_notation(const std::string& label) {
  QString out;
  for (const Piece& p : parse(label)) {
    if (p.place == Place::Line) {
      out += p.text;
      continue;
    }
    QString scripted;
    for (QChar c : p.text) {
      const QChar s = scriptDigit(c, p.place);
      if (s.isNull()) {
        scripted.clear();
        break;
      }
      scripted += s;
    }
    out += !scripted.isEmpty() ? scripted : (p.place == Place::Sub ? "_" : "^") + p.text;
  }
  return out;
}

QString rich_axis_title(const std::string& name, const std::string& unit) {
  return unit.empty() ? rich_notation(name) : rich_notation(name) + " [" + rich_notation(unit) + "]";
}

QString unicode_axis_title(const std::string& name, const std::string& unit) {
  return unit.empty() ? unicode_notation(name) : unicode_notation(name) + " [" + unicode_notation(unit) + "]";
}

QStaticText rich_axis_title_text(const std::string& name, const std::string& unit) {
  QStaticText text(rich_axis_title(name, unit));
  text.setTextFormat(Qt::RichText);
  return text;
}

}  // namespace ks::gui
