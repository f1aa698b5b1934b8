/* N-body (softened gravity) on an array of structs: a typedef'd struct carried into the
   kernels, a struct array in copy/copyin clauses, a routine (seq) taking and returning structs,
   a second routine calling the first, firstprivate of a struct of parameters, an inner seq loop,
   and a kernels region computing the energy with a + reduction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
} vec3;

typedef struct {
  vec3 pos, vel;
  double mass;
} body;

typedef struct {
  double dt, soft2;
} params;

#pragma acc routine seq
static vec3 sub(vec3 a, vec3 b) {
  vec3 r = {a.x - b.x, a.y - b.y, a.z - b.z};
  return r;
}

#pragma acc routine seq
static vec3 pull(vec3 at, const body *other, double soft2) {
  vec3 d = sub(other->pos, at);
  double r2 = d.x * d.x + d.y * d.y + d.z * d.z + soft2;
  double inv = other->mass / (r2 * sqrt(r2));
  vec3 f = {d.x * inv, d.y * inv, d.z * inv};
  return f;
}

#define NB 96

int main(void) {
  int n = NB;
  body *bodies = malloc(n * sizeof *bodies);
  vec3 *acc = malloc(n * sizeof *acc);
  for (int i = 0; i < n; i++) {
    bodies[i].pos.x = (i % 7) - 3.0;
    bodies[i].pos.y = (i % 5) * 0.5 - 1.0;
    bodies[i].pos.z = (i % 3) * 0.25 + i * 0.01;
    bodies[i].vel.x = bodies[i].vel.y = bodies[i].vel.z = 0.0;
    bodies[i].mass = 1.0 + (i % 4) * 0.5;
  }
  params prm = {0.01, 0.05};
  double kinetic = 0.0;

#pragma acc data copy(bodies[0:n]) create(acc[0:n])
  {
    for (int step = 0; step < 5; step++) {
#pragma acc parallel loop firstprivate(prm) present(bodies[0:n], acc[0:n])
      for (int i = 0; i < n; i++) {
        vec3 a = {0.0, 0.0, 0.0};
#pragma acc loop seq
        for (int j = 0; j < n; j++) {
          if (j == i)
            continue;
          vec3 f = pull(bodies[i].pos, &bodies[j], prm.soft2);
          a.x += f.x;
          a.y += f.y;
          a.z += f.z;
        }
        acc[i] = a;
      }
#pragma acc parallel loop present(bodies[0:n], acc[0:n])
      for (int i = 0; i < n; i++) {
        bodies[i].vel.x += prm.dt * acc[i].x;
        bodies[i].vel.y += prm.dt * acc[i].y;
        bodies[i].vel.z += prm.dt * acc[i].z;
        bodies[i].pos.x += prm.dt * bodies[i].vel.x;
        bodies[i].pos.y += prm.dt * bodies[i].vel.y;
        bodies[i].pos.z += prm.dt * bodies[i].vel.z;
      }
    }
#pragma acc kernels present(bodies[0:n])
    {
#pragma acc loop reduction(+:kinetic)
      for (int i = 0; i < n; i++)
        kinetic += 0.5 * bodies[i].mass *
                   (bodies[i].vel.x * bodies[i].vel.x + bodies[i].vel.y * bodies[i].vel.y +
                    bodies[i].vel.z * bodies[i].vel.z);
    }
  }
  vec3 c = {0.0, 0.0, 0.0};
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    c.x += bodies[i].mass * bodies[i].pos.x;
    c.y += bodies[i].mass * bodies[i].pos.y;
    c.z += bodies[i].mass * bodies[i].pos.z;
    m += bodies[i].mass;
  }
  printf("nbody: kinetic=%.6e center=(%.6e, %.6e, %.6e) b0=(%.6e, %.6e)\n", kinetic, c.x / m,
         c.y / m, c.z / m, bodies[0].pos.x, bodies[0].vel.y);
  free(bodies);
  free(acc);
  return 0;
}
