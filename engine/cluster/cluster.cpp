// cluster.h in every build: a world of one rank, or, under an MPI launcher in a build with the
// MPI backend, the backend loaded from tetrisbench-mpi.so beside the program (mpi_backend.h).
#include "cluster.h"

#ifdef TB_WITH_MPI
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "mpi_backend.h"
#endif

namespace tb::cluster {
namespace {
World the_world;
}  // namespace

const World& world() { return the_world; }

#ifndef TB_WITH_MPI

bool built_with_mpi() { return false; }
World start(int*, char***, std::string_view) { return the_world; }
int serve() { return 0; }
void finish() {}

#else

bool built_with_mpi() { return true; }

namespace {

const Backend* backend = nullptr;

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "tetrisbench: error: started by an MPI launcher, but %s\n", why.c_str());
  std::exit(1);
}

// The backend's file: TB_MPI_BACKEND in the folder of the running program.
std::string backend_path() {
  std::string exe(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", exe.data(), exe.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= exe.size()) fail("the program's own path is not readable");
  exe.resize(static_cast<std::size_t>(n));
  const std::size_t slash = exe.rfind('/');
  return exe.substr(0, slash == std::string::npos ? 0 : slash + 1) + TB_MPI_BACKEND;
}

// Loaded once and never unloaded: MPI lives until the process ends.  RTLD_GLOBAL: Open MPI
// built with its components as modules of their own loads them later, and they look for the
// symbols of libmpi and libopen-pal in the global scope (the backend itself exports one name).
const Backend* load_backend() {
  const std::string path = backend_path();
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!module) {
    const char* why = dlerror();
    fail("the MPI backend did not load (" + std::string(why ? why : path) + ")");
  }
  using Entry = const Backend* (*)(std::uint64_t);
  const auto entry = reinterpret_cast<Entry>(dlsym(module, kBackendEntry));
  if (!entry) fail(path + " has no " + kBackendEntry);
  const Backend* b = entry(backend_fingerprint());
  if (!b) fail(path + " is from another build of tetrisbench");
  return b;
}

std::shared_ptr<NTupleNetwork> make_network(Geometry g) { return std::make_shared<NTupleNetwork>(g); }

const EngineCalls kEngine{&best_kernel,   &find_kernel,  &kernel_variants,      &cpu_features,
                          &find_feature_set, &make_network, &thread_count, &set_game_distributor,
                          &play_population_range};

}  // namespace

World start(int* argc, char*** argv, std::string_view build_id) {
  if (backend || !launched_by_mpi()) return the_world;
  backend = load_backend();
  the_world = backend->start(argc, argv, build_id, kEngine);
  return the_world;
}

int serve() { return backend ? backend->serve() : 0; }

void finish() {
  if (backend) backend->finish();
}

#endif

}  // namespace tb::cluster
