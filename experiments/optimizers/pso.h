// Particle swarm optimization, synchronous: ask() returns the whole swarm, tell() updates the
// personal and global bests, and the next ask() moves every particle.
//
// `pso`: Standard PSO 2011 (Clerc 2011, "Standard Particle Swarm Optimisation", HAL
// hal-00764996; Zambrano-Bigiarini, Clerc & Rojas 2013, "Standard Particle Swarm Optimisation
// 2011 at CEC-2013: A baseline for future PSO improvements", IEEE CEC): adaptive random
// topology, rotation-invariant velocity update from a random point of a hypersphere.
//
// `pso-article1`: the classic inertia-weight PSO of article 1 (a Java Tetris tuner): global
// best topology, v = w v + c1 r1 (p - x) + c2 r2 (g - x) per component, velocity clamp.
#pragma once

#include "sampler.h"

namespace tb::opt {

// How the random point x' of SPSO-2011 is drawn in the ball H(G, r): always in a uniformly
// random direction (a normalized Gaussian vector), at a distance from G of
//   radius: r U, U uniform in [0, 1): Clerc's reference code (its default "distrib 0"); the
//           points are denser near G, and the swarm converges in any dimension;
//   volume: r U^(1/dim): uniform in the volume; almost every point lies near the surface in
//           high dimension, and the swarm then fails to contract (dim 30: no convergence).
enum class BallSampling { radius, volume };

// A random point of the ball of `radius` around `centre` (Clerc 2011, "alea_sphere").
Vector sample_in_ball(const Vector& centre, double radius, BallSampling how, Random& rng);

enum class SwarmRule {
  spso2011,       // x' in H(G, |G - x|), v = w v + x' - x; clamp x and zero v at a bound
  inertia_gbest,  // article 1: classic update, |v| <= vmax per component, clamp x, keep v
};

struct SwarmParams {
  SwarmRule rule = SwarmRule::spso2011;
  int swarm = 40;
  int informants = 3;                       // K (spso2011)
  BallSampling ball = BallSampling::radius; // spso2011
  double w = 0.0;                           // inertia
  double c = 0.0;                           // spso2011 acceleration
  double c1 = 0.0, c2 = 0.0, vmax = 0.0;    // inertia_gbest
  double low = -5.0, high = 5.0;            // the search box (confinement)
  double init_low = -5.0, init_high = 5.0;  // initial positions
  double vinit_low = 0.0, vinit_high = 0.0; // inertia_gbest initial velocities

  static SwarmParams spso2011(const OptimizerSetup& setup);
  static SwarmParams article1(const OptimizerSetup& setup);
};

class ParticleSwarm final : public pop::Sampler {
 public:
  ParticleSwarm(const OptimizerSetup& setup, const SwarmParams& params);

  std::string_view name() const override;
  Matrix ask() override;
  void tell(const Matrix& X, const Vector& f) override;
  double spread() const override;  // the mean per-coordinate std. dev. of the positions
  Json state() const override;
  void restore(const Json& state) override;

  const SwarmParams& params() const { return params_; }
  const Matrix& positions() const { return x_; }
  const Matrix& velocities() const { return v_; }
  // The particle whose personal best informs particle i best (i itself on ties).
  int local_best(int i) const;

 private:
  void draw_topology();
  void move_spso2011();
  void move_inertia_gbest();

  SwarmParams params_;
  Matrix x_;          // (dim, swarm) positions
  Matrix v_;          // (dim, swarm) velocities
  Matrix p_;          // (dim, swarm) personal best positions
  Vector pf_;         // (swarm) their values, +inf before the first tell
  std::vector<int> informs_;  // (swarm * K) particle j informs informs_[j * K + k] (spso2011)
};

std::unique_ptr<Optimizer> make_pso(const OptimizerSetup& setup);
std::unique_ptr<Optimizer> make_pso_article1(const OptimizerSetup& setup);

}  // namespace tb::opt
