// The analysis board's HTTP server loop: POSIX sockets, each connection served on a thread of its own
// (at most `maxConnections` at once, beyond them a 503), so that a slow client or a long request
// (a bot's move, a "think") never holds up the others; each read against a deadline so that a
// client that sends nothing or sends slowly ends with a 408, and a stop flag (Ctrl-C) checked
// several times a second. The handler is called from several threads at once.
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
#include <list>
#include <string>
#include <system_error>
#include <thread>

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

  // Answers requests until `stop` is set, each connection on its own thread. `readTimeoutMs`: how
  // long one request may take to arrive. `onStop`, when given, is called once `stop` is seen and
  // before the connections still open are waited for (to cut short a long request: a "think").
  void serve(const Handler& handler, const std::atomic<bool>& stop, const HttpLimits& limits = HttpLimits(),
             int readTimeoutMs = 5000, const std::function<void()>& onStop = {}) {
    while (!stop) {
      reap(false);
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      if (workers_.size() >= maxConnections_) {  // one try, without waiting: the client may not read
        const std::string text = responseText(errorResponse(503, "too many connections at once"));
        [[maybe_unused]] const ssize_t n = ::send(client, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        close(client);
        continue;
      }
      workers_.emplace_back();
      Worker& w = workers_.back();
      try {
        w.thread = std::thread([this, &w, client, &handler, &stop, limits, readTimeoutMs] {
          answer(client, handler, stop, limits, readTimeoutMs);
          close(client);
          ++served_;
          w.done = true;
        });
      } catch (const std::system_error&) {  // no thread to be had: the client is told, the server goes on
        workers_.pop_back();
        sendAll(client, responseText(errorResponse(503, "no thread for the connection")));
        close(client);
      }
    }
    if (onStop) onStop();
    reap(true);
  }
  uint64_t served() const { return served_; }

 private:
  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
  };
  // Joins the connections' threads that are done (`all`: every one, waiting for them).
  void reap(bool all) {
    for (auto it = workers_.begin(); it != workers_.end();)
      if (all || it->done) {
        it->thread.join();
        it = workers_.erase(it);
      } else
        ++it;
  }

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
  std::atomic<uint64_t> served_{0};
  size_t maxConnections_ = 64;  // connections served at once; beyond, 503
  std::list<Worker> workers_;   // the connections being served (a list: a Worker never moves)
};

}  // namespace yav::board
