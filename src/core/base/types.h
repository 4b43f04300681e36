// Shared types of the attention core.
//
// Legend used across src/core:
//   n_q = query tokens, n_k = key tokens, d_k = query/key width, d_v = value width,
//   d_model = embedding width, h = heads.
// Matrices are row-major float: row i is token i, which matches texture uploads and
// JS typed arrays without a transpose.
#pragma once

#include <Eigen/Core>

#include <string>
#include <type_traits>
#include <vector>

namespace attn {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using BoolMat = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A message with an id: its English text has {0}, {1}, ... where its arguments go. Each
// domain lists its messages in a catalog (core/io/io_messages.h, core/train/train_messages.h,
// app/app_messages.h, core/attention/attention_messages.h); the UI holds their Chinese texts
// under the same ids (ui/message_strings.h) and translates a Status part by part.
struct MessageText {
  const char* id;
  const char* english;
};

// One piece of a Status's message: a catalog text with its arguments, or (text == nullptr) a
// literal that is not translated (a file name, or a message that has no id yet).
struct MessagePart {
  const MessageText* text = nullptr;
  std::vector<std::string> args;
  std::string literal;
};

// `text` with {0}..{9} replaced by args (a missing argument stays as written).
std::string fill_message(const char* text, const std::vector<std::string>& args);

inline std::string message_arg(const std::string& s) { return s; }
inline std::string message_arg(const char* s) { return s; }
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
std::string message_arg(T v) { return std::to_string(v); }

// The core never throws (exceptions abort a WebAssembly instance built without them):
// a function that can refuse its input returns a Status next to its result.
struct Status {
  bool ok = true;
  std::string message;             // English, the parts joined by ": "; empty when ok
  std::vector<MessagePart> parts;  // outermost first

  static Status success() { return {}; }
  // A message without an id (the UI shows it as written).
  static Status error(std::string why);
  // A catalog message: Status::error(msg::text_too_long, bytes, limit).
  template <class... A>
  static Status error(const MessageText& text, const A&... args) {
    return coded(text, {message_arg(args)...});
  }
  static Status coded(const MessageText& text, std::vector<std::string> args);

  // This refusal inside a context: "label: message" (the label is not translated), or a
  // catalog message before it ("The link's state was ignored: message").
  Status within(std::string label) const;
  template <class... A>
  Status within(const MessageText& text, const A&... args) const {
    return prefixed(MessagePart{&text, {message_arg(args)...}, {}});
  }
  Status prefixed(MessagePart part) const;
};

}  // namespace attn
