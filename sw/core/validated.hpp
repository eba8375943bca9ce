// Validated<Config>: a configuration that passed its one validation. Only Config::validated()
// makes one, so whatever takes a Validated<Config> (the SystemC systems, the runner's requests)
// cannot be handed an unchecked configuration and has no reason to check it again.
#pragma once

#include <utility>

namespace orthosim::sw {

template <class Config>
class Validated {
 public:
  /// The default configuration, validated like any other.
  Validated() : Validated(Config{}.validated()) {}

  [[nodiscard]] const Config& operator*() const { return config_; }
  [[nodiscard]] const Config* operator->() const { return &config_; }
  /// Read access wherever a plain configuration is read (costs, reports, footprints).
  operator const Config&() const { return config_; }  // NOLINT(google-explicit-constructor)

 private:
  friend Config;
  explicit Validated(Config config) : config_(std::move(config)) {}

  Config config_;
};

}  // namespace orthosim::sw
