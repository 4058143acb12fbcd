// The font of the text that VTK and Dear ImGui draw themselves (the plot's titles, ticks and
// legend, the scene's colour bar, the field view's overlay): DejaVu Sans from Debian's
// fonts-dejavu-core, which has the Greek letters and symbols the labels are written with
// (notation.hpp). Their built-in fonts have Latin letters only. Qt's widgets and QPainter find
// their fonts through fontconfig and need nothing from here.
#pragma once

#include <array>

class vtkTextProperty;

namespace ks::gui {

// Where fonts-dejavu-core installs DejaVu Sans (Debian 12, Ubuntu 24.04).
inline constexpr const char* kTextFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Whether kTextFontFile is there. The first call that finds it missing says so on stderr (once
// per process); the views then keep their built-in fonts.
bool text_font_available();

// VTK draws `text` (UTF-8 strings) in kTextFontFile, when available.
void use_text_font(vtkTextProperty* text);

// The characters the overlay's font atlas holds: inclusive [first, last] pairs as Dear ImGui takes
// them, 0 at the end. Basic Latin and Latin-1 (±, ·, ², ³), Greek, dashes and "…", super- and
// subscripts (⁻, ₂, ₋), the minus sign, √, ∞, ≤ and ≥.
inline constexpr std::array<char32_t, 19> kOverlayGlyphRanges = {0x0020, 0x00FF,  // Basic Latin, Latin-1 Supplement
                                                                 0x0370, 0x03FF,  // Greek and Coptic
                                                                 0x2013, 0x2014,  // – —
                                                                 0x2026, 0x2026,  // …
                                                                 0x2070, 0x209F,  // superscripts and subscripts
                                                                 0x2212, 0x2212,  // −
                                                                 0x221A, 0x221A,  // √
                                                                 0x221E, 0x221E,  // ∞
                                                                 0x2264, 0x2265,  // ≤ ≥
                                                                 0};

}  // namespace ks::gui
