// The live view's frame time while a CUDA run goes, at an N x N field (default 512^2): what the
// field view's paint does on the zero-copy path (app/gui/field_view.cpp, device_field_feed.cpp),
// without Qt on a headless EGL context: copy the Runner's newest published field device to device
// into a GL buffer (ZeroCopyBuffer::refresh), unpack it on the GPU into the field texture through
// the pixel buffer (unpack_layer), draw it colour-mapped on a quad into a 1280 x 800 framebuffer
// and wait for the GPU (glFinish, as a swap would). Frames are paced at 60 Hz, as a display's
// vertical sync would, for some seconds while the Runner steps kinetic.bgk's cavity, and again
// with the Runner paused (the baseline); each frame's time is its work, the wait for the next tick
// excluded. Writes p50, p99 and the longest frame, the frames over 1/60 s, the frames that brought
// a new field, and the solver's iterations per second meanwhile. The targets (issue 28): 60 fps
// and no frame blocked by a solver step.
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_json.hpp"
#include "command_line.hpp"
#include "core/backend.hpp"
#include "core/quantile.hpp"
#include "core/registry.hpp"
#include "headless_gl.hpp"
#include "methods/bgk/bgk_method.hpp"
#include "run/runner.hpp"
#include "zero_copy_buffer.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kViewWidth = 1280, kViewHeight = 800;              // the app's first window
constexpr auto kFramePeriod = std::chrono::microseconds(16667);  // 60 Hz

struct Options {
  int cells = 512;
  double seconds = 10.0;
  int nv = 8;
  std::string out = "live_view.json";
};

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  CLI::App app(
      "bench_live_view: the zero-copy field view's frame time (p50, p99) while a CUDA run of the BGK "
      "cavity goes, against the same frames with the run paused; headless EGL; writes JSON.\n\n"
      "usage: bench_live_view [options]",
      "bench_live_view");
  ks::cli::use_conventions(app, help);
  ks::cli::add_integer(app, "--cells", o.cells, 16, 4096, "cells per axis of the field (default 512)", "N");
  ks::cli::add_positive(app, "--seconds", o.seconds, "seconds of frames per phase (default 10)", "S");
  ks::cli::add_integer(app, "--nv", o.nv, 4, 32, "velocities per axis of the cavity (default 8)", "M");
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (!help) return o;
  std::fputs(ks::cli::help_text(app).c_str(), stdout);
  return std::nullopt;
}

// The field view's image pass in miniature: a quad over the framebuffer, the field texture's value
// mapped to a colour ramp (the cost of a colour-map lookup, not its colours).
GLuint imageProgram() {
  const char* vertex = R"(#version 330 core
out vec2 v_uv;
void main() {
  v_uv = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  gl_Position = vec4(2.0 * v_uv - 1.0, 0.0, 1.0);
})";
  const char* fragment = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_field;
uniform float u_lo, u_hi;
out vec4 colour;
void main() {
  float t = clamp((texture(u_field, v_uv).r - u_lo) / (u_hi - u_lo), 0.0, 1.0);
  colour = vec4(mix(vec3(0.27, 0.0, 0.33), vec3(0.99, 0.91, 0.14), t), 1.0);
})";
  const GLuint program = glCreateProgram();
  for (const auto& [type, source] : {std::pair{GL_VERTEX_SHADER, vertex}, std::pair{GL_FRAGMENT_SHADER, fragment}}) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    glAttachShader(program, shader);
  }
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) throw std::runtime_error("the image shaders did not link");
  return program;
}

struct Phase {
  std::vector<double> frame_ms;
  int new_fields = 0;
  double iterations_per_s = 0.0;

  nlohmann::json json() const {
    return {{"frames", frame_ms.size()},
            {"p50_ms", ks::quantile(frame_ms, 0.50)},
            {"p99_ms", ks::quantile(frame_ms, 0.99)},
            {"max_ms", *std::max_element(frame_ms.begin(), frame_ms.end())},
            {"frames_over_a_60_Hz_period", std::count_if(frame_ms.begin(), frame_ms.end(), [](double ms) { return ms > 1000.0 / 60.0; })},
            {"frames_with_a_new_field", new_fields},
            {"solver_iterations_per_s", iterations_per_s}};
  }
};

class LiveView {
 public:
  LiveView(const ks::DeviceFieldPublisher& source, int cells) : image_(source), cells_(cells), program_(imageProgram()) {
    glGenVertexArrays(1, &vao_);
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cells, cells, 0, GL_RED, GL_FLOAT, nullptr);
    glGenRenderbuffers(1, &colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kViewWidth, kViewHeight);
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) throw std::runtime_error("no framebuffer");
  }

  // One frame as the view paints it; true when it brought a newer field.
  bool frame() {
    const bool fresh = image_.refresh();
    image_.unpack_layer(cells_, cells_, 1, 0, [&](const void* offset) {
      glBindTexture(GL_TEXTURE_2D, texture_);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, cells_, cells_, GL_RED, GL_FLOAT, offset);
    });
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glViewport(0, 0, kViewWidth, kViewHeight);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(program_);
    glUniform1f(glGetUniformLocation(program_, "u_lo"), 0.0f);
    glUniform1f(glGetUniformLocation(program_, "u_hi"), 0.1f);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glFinish();
    return fresh;
  }

  Phase run(double seconds_wanted, ks::Runner& runner) {
    Phase p;
    const std::int64_t first = runner.progress().iteration;
    const auto start = Clock::now();
    const int frames = int(seconds_wanted * 60.0);
    for (int f = 0; f < frames; ++f) {
      const auto t0 = Clock::now();
      p.new_fields += frame() ? 1 : 0;
      p.frame_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      std::this_thread::sleep_until(start + (f + 1) * kFramePeriod);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    p.iterations_per_s = double(runner.progress().iteration - first) / seconds;
    return p;
  }

 private:
  ks::interop::ZeroCopyBuffer image_;
  int cells_;
  GLuint program_, vao_ = 0, texture_ = 0, colour_ = 0, framebuffer_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> o = parse(argc, argv);
  if (!o) return 0;
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) {
    std::fprintf(stderr, "bench_live_view: no usable CUDA device (%s)\n", cuda.reason.c_str());
    return 3;
  }
  ks::interop::HeadlessGl gl;
  if (!gl.problem.empty()) {
    std::fprintf(stderr, "bench_live_view: %s\n", gl.problem.c_str());
    return 3;
  }
  ks::ParamSet p(ks::bgk::BgkMethod::static_info().params);
  p.set("case", ks::ParamValue(std::string("cavity")));
  p.set("nx", std::int64_t(o->cells));
  p.set("ny", std::int64_t(o->cells));
  p.set("nv", std::int64_t(o->nv));
  p.set("vx_min", -3.0);
  p.set("vx_max", 3.0);
  p.set("vt_max", 3.0);
  p.set("lid_speed", 0.1);
  p.set("courant", 0.9);
  p.set("tolerance", 0.0);
  p.set("t_end", 1e6);
  p.set("steps_per_iteration", std::int64_t(1));
  ks::RunnerOptions options;
  options.snapshot_interval = std::chrono::milliseconds(50);  // as the app (main_window.cpp)
  options.device_field = "V";
  const ks::ExecutionContext ctx = ks::resolve_backend(ks::BackendRequest::Cuda);
  ks::Runner runner(ks::builtin_registry().create("kinetic.bgk"), p, ctx, options);
  runner.wait_settled(std::chrono::minutes(5));
  runner.step(2);  // a first publication
  runner.wait_settled(std::chrono::minutes(5));
  LiveView view(*runner.device_field(), o->cells);

  const Phase paused = view.run(o->seconds, runner);
  runner.start();
  const Phase running = view.run(o->seconds, runner);
  runner.stop();

  nlohmann::json result = {{"machine", ks::bench::machine_description(ctx, cuda)},
                           {"case", "kinetic.bgk cavity " + std::to_string(o->cells) + "^2 cells, " + std::to_string(o->nv) +
                                        "^3 velocities, one step per iteration"},
                           {"view", {{"width", kViewWidth}, {"height", kViewHeight}, {"field", "|V|"}}},
                           {"paused", paused.json()},
                           {"running", running.json()}};
  std::printf("%s\n", result.dump(1).c_str());
  ks::bench::write_json(result, o->out);
  return 0;
}
