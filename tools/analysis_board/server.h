// The analysis board's HTTP server loop: POSIX sockets, one connection at a time (a page for one person;
// the state it serves is one game), each read against a deadline so that a client that sends
// nothing or sends slowly cannot hold it, and a stop flag (Ctrl-C) checked several times a second.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>

#include "tools/arena/json.h"
#include "tools/analysis_board/http.h"

namespace yav::board {

using Handler = std::function<HttpResponse(const HttpRequest&)>;

// A refusal as the API gives it: {"error": "..."}.
inline HttpResponse errorResponse(int status, const std::string& reason) {
  return {status, "application/json", "{\"error\":" + arena::json::quote(reason) + "}"};
}

class HttpServer {
 public:
  HttpServer() = default;
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer() {
    if (fd_ >= 0) close(fd_);
  }

  // Binds host:port (port 0: any free port, see port()). False with `error` on failure.
  bool listen(const std::string& host, int port, std::string& error) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(port));
    if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1)
      return error = "--host: '" + host + "' is not an IPv4 address", false;
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return error = std::string("socket: ") + std::strerror(errno), false;
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      return error = "cannot bind " + host + ":" + std::to_string(port) + ": " + std::strerror(errno), false;
    if (::listen(fd_, 16) != 0) return error = std::string("listen: ") + std::strerror(errno), false;
    socklen_t size = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &size);
    port_ = ntohs(addr.sin_port);
    return true;
  }
  int port() const { return port_; }

  // Answers requests until `stop` is set. `readTimeoutMs`: how long one request may take to arrive.
  void serve(const Handler& handler, const std::atomic<bool>& stop, const HttpLimits& limits = HttpLimits(),
             int readTimeoutMs = 5000) {
    while (!stop) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      answer(client, handler, stop, limits, readTimeoutMs);
      close(client);
      ++served_;
    }
  }
  uint64_t served() const { return served_; }

 private:
  static void sendAll(int fd, const std::string& text) {
    size_t done = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (done < text.size() && std::chrono::steady_clock::now() < deadline) {
      const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        done += size_t(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return;  // the client left
      pollfd p{fd, POLLOUT, 0};
      poll(&p, 1, 100);
    }
  }

  static void answer(int client, const Handler& handler, const std::atomic<bool>& stop, const HttpLimits& limits,
                     int readTimeoutMs) {
    RequestParser parser(limits);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(readTimeoutMs);
    char chunk[8192];
    while (parser.state() == RequestParser::State::NeedMore) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0 || stop)
        return sendAll(client, responseText(errorResponse(408, "the request did not arrive in time")));
      pollfd p{client, POLLIN, 0};
      if (poll(&p, 1, int(std::min<long long>(left, 200))) <= 0) continue;
      const ssize_t n = recv(client, chunk, sizeof chunk, 0);
      if (n == 0) return;  // closed before a whole request: nobody to answer
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        return;
      }
      parser.feed(chunk, size_t(n));
    }
    if (parser.state() == RequestParser::State::Error)
      return sendAll(client, responseText(errorResponse(parser.errorStatus(), parser.errorReason())));
    HttpResponse response;
    try {
      response = handler(parser.request());
    } catch (const std::exception& e) {  // a handler's failure answers 500; the server goes on
      response = errorResponse(500, std::string("internal error: ") + e.what());
    }
    std::string text = responseText(response);
    if (parser.request().method == "HEAD") text.resize(text.size() - response.body.size());  // the header alone
    sendAll(client, text);
  }

  int fd_ = -1;
  int port_ = 0;
  uint64_t served_ = 0;
};

}  // namespace yav::board
