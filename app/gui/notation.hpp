// Labels in proper notation. Engine labels are plain ASCII ("x (lambda-)", "sigma_g", "kg/m^3",
// "V / sqrt(2RT-)"); views show them with Greek letters, sub- and superscripts: Qt rich text for
// QPainter and Qt widgets, Unicode for VTK charts and the ImGui overlay, which draw plain text
// (in text_font.hpp's font). UTF-8 in a label ("± standard error") is kept as it is.
#pragma once

#include <QStaticText>
#include <QString>
#include <string>

namespace ks::gui {

// Qt rich text (HTML): Greek letter names become letters ("lambda" -> λ), "_x" and "_(...)" a
// subscript, "^3" a superscript, a minus right after a name ("n-", "lambda-": the upstream state)
// a subscript minus, "inf" as a subscript ∞ and "sqrt" √. Everything else is kept, HTML-escaped.
QString rich_notation(const std::string& label);

// The same label as plain Unicode text: Greek letters, √, ∞ and superscript digits; subscripts
// stay written with '_' except the minus (₋) and digits (₂), which Unicode has.
QString unicode_notation(const std::string& label);

// An axis title: "<name> [<unit>]" (rich text), the name alone without a unit.
QString rich_axis_title(const std::string& name, const std::string& unit);
// The same as plain Unicode text, for VTK and the ImGui overlay: "End time [τ_char]".
QString unicode_axis_title(const std::string& name, const std::string& unit);
// The same, laid out once for QPainter::drawStaticText.
QStaticText rich_axis_title_text(const std::string& name, const std::string& unit);

}  // namespace ks::gui
