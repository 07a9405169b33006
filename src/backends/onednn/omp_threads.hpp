// Sets this thread's OpenMP thread count for a scope and restores the previous one on exit.
#pragma once

#include <omp.h>

namespace webnn::onednn {

class OmpThreads {
 public:
  explicit OmpThreads(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(saved_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
};

}  // namespace webnn::onednn
