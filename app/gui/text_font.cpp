#include "text_font.hpp"

#include <QFileInfo>
#include <cstdio>

#include <vtkTextProperty.h>

namespace ks::gui {

namespace {

bool font_file_found() {
  if (QFileInfo(kTextFontFile).isReadable()) return true;
  std::fprintf(stderr,
               "kinetic-studio: warning: no %s (install fonts-dejavu-core): plots and the overlay show Latin "
               "letters only, no Greek letters or math symbols\n",
               kTextFontFile);
  return false;
}

}  // namespace

bool text_font_available() {
  static const bool found = font_file_found();  // looked for (and reported) once
  return found;
}

void use_text_font(vtkTextProperty* text) {
  if (!text_font_available()) return;
  text->SetFontFamily(VTK_FONT_FILE);
  text->SetFontFile(kTextFontFile);
}

}  // namespace ks::gui
