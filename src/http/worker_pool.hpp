// The workers that run the bridge's handlers: a fixed set of threads taking jobs from one queue,
// each thread keeping its own state (the bridge's database connection) between jobs. Knows
// nothing of HTTP or sockets.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace syndic::http {

class WorkerPool {
public:
    explicit WorkerPool(std::size_t threads);
    ~WorkerPool();  // finishes the jobs queued, then joins
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> job);
    // Runs every job already queued, then joins the threads; later submits are dropped.
    void shutdown();

private:
    void work();

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace syndic::http
