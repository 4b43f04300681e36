#include "gfx/shader.h"

#include <vector>

namespace attn::gfx {
namespace {

GLuint compile(GLenum type, const char* body, std::string& error) {
  const GLuint shader = glCreateShader(type);
  const char* sources[2] = {glsl_prelude(), body};
  glShaderSource(shader, 2, sources, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1));
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    error = std::string(type == GL_VERTEX_SHADER ? "vertex" : "fragment") +
            " shader: " + log.data();
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

GLuint build_program(const char* vertex_body, const char* fragment_body, std::string& error) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_body, error);
  if (!vs) return 0;
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_body, error);
  if (!fs) {
    glDeleteShader(vs);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {0};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    error = std::string("link: ") + log;
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

}  // namespace attn::gfx
