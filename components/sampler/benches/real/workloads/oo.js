// An object-oriented workload of our own: class hierarchies, virtual calls
// through base-class references, getters, super calls and short-lived
// allocation. Three parts: an expression tree built and evaluated (one class
// per node kind), a particle simulation over a shape hierarchy with vector
// objects, and a task scheduler with a queue of polymorphic tasks.

class Vec {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
  add(o) {
    return new Vec(this.x + o.x, this.y + o.y);
  }
  scale(k) {
    return new Vec(this.x * k, this.y * k);
  }
  get length() {
    return Math.sqrt(this.x * this.x + this.y * this.y);
  }
}

class Node {
  evaluate(env) {
    throw new Error("abstract");
  }
  get size() {
    return 1;
  }
}
class Num extends Node {
  constructor(v) {
    super();
    this.v = v;
  }
  evaluate() {
    return this.v;
  }
}
class Var extends Node {
  constructor(i) {
    super();
    this.i = i;
  }
  evaluate(env) {
    return env[this.i];
  }
}
class Binary extends Node {
  constructor(l, r) {
    super();
    this.l = l;
    this.r = r;
  }
  get size() {
    return 1 + this.l.size + this.r.size;
  }
}
class Add extends Binary {
  evaluate(env) {
    return this.l.evaluate(env) + this.r.evaluate(env);
  }
}
class Mul extends Binary {
  evaluate(env) {
    return (this.l.evaluate(env) * this.r.evaluate(env)) % 1000003;
  }
}
class Sub extends Binary {
  evaluate(env) {
    return this.l.evaluate(env) - this.r.evaluate(env);
  }
}
class Max extends Binary {
  evaluate(env) {
    const a = this.l.evaluate(env);
    const b = this.r.evaluate(env);
    return a > b ? a : b;
  }
}

class Random {
  constructor(seed) {
    this.s = seed;
  }
  next() {
    this.s = (this.s * 1103515245 + 12345) & 0x7fffffff;
    return this.s;
  }
  below(n) {
    return this.next() % n;
  }
}

function buildTree(rng, depth) {
  if (depth === 0 || rng.below(10) < 2) {
    return rng.below(2) ? new Num(rng.below(100)) : new Var(rng.below(4));
  }
  const l = buildTree(rng, depth - 1);
  const r = buildTree(rng, depth - 1);
  switch (rng.below(4)) {
    case 0:
      return new Add(l, r);
    case 1:
      return new Mul(l, r);
    case 2:
      return new Sub(l, r);
    default:
      return new Max(l, r);
  }
}

function expressions(rng) {
  let total = 0;
  for (let t = 0; t < 60; t++) {
    const tree = buildTree(rng, 12);
    total += tree.size;
    for (let e = 0; e < 40; e++) {
      total = (total + tree.evaluate([e, e + 1, e * 2, 7])) % 1000000007;
    }
  }
  return total;
}

class Shape {
  constructor(pos, vel) {
    this.pos = pos;
    this.vel = vel;
  }
  step(dt) {
    this.pos = this.pos.add(this.vel.scale(dt));
    if (this.pos.length > 1000) {
      this.vel = this.vel.scale(-1);
    }
  }
  area() {
    return 0;
  }
}
class Circle extends Shape {
  constructor(pos, vel, r) {
    super(pos, vel);
    this.r = r;
  }
  area() {
    return Math.PI * this.r * this.r;
  }
}
class Rect extends Shape {
  constructor(pos, vel, w, h) {
    super(pos, vel);
    this.w = w;
    this.h = h;
  }
  area() {
    return this.w * this.h;
  }
}
class Square extends Rect {
  constructor(pos, vel, s) {
    super(pos, vel, s, s);
  }
  step(dt) {
    super.step(dt * 0.5);
  }
}
class Triangle extends Shape {
  constructor(pos, vel, b, h) {
    super(pos, vel);
    this.b = b;
    this.h = h;
  }
  area() {
    return 0.5 * this.b * this.h;
  }
}

function particles(rng) {
  const shapes = [];
  for (let i = 0; i < 2000; i++) {
    const pos = new Vec(rng.below(100), rng.below(100));
    const vel = new Vec(rng.below(9) - 4, rng.below(9) - 4);
    switch (i % 4) {
      case 0:
        shapes.push(new Circle(pos, vel, 1 + rng.below(5)));
        break;
      case 1:
        shapes.push(new Rect(pos, vel, 1 + rng.below(5), 1 + rng.below(5)));
        break;
      case 2:
        shapes.push(new Square(pos, vel, 1 + rng.below(5)));
        break;
      default:
        shapes.push(new Triangle(pos, vel, 1 + rng.below(5), 1 + rng.below(5)));
    }
  }
  let sum = 0;
  for (let s = 0; s < 100; s++) {
    for (const shape of shapes) {
      shape.step(0.1);
      sum += shape.area();
    }
  }
  return Math.round(sum);
}

class Task {
  constructor(id, work) {
    this.id = id;
    this.work = work;
  }
  run(scheduler) {
    this.work--;
    return this.work > 0;
  }
}
class ComputeTask extends Task {
  run(scheduler) {
    scheduler.acc = (scheduler.acc * 31 + this.id) % 1000003;
    return super.run(scheduler);
  }
}
class SpawnTask extends Task {
  run(scheduler) {
    if (this.work % 3 === 0) {
      scheduler.add(new ComputeTask(this.id * 7, 5));
    }
    return super.run(scheduler);
  }
}
class IdleTask extends Task {}

class Scheduler {
  constructor() {
    this.queue = [];
    this.acc = 1;
    this.runs = 0;
  }
  add(task) {
    this.queue.push(task);
  }
  drain() {
    let head = 0;
    while (head < this.queue.length) {
      const task = this.queue[head++];
      this.runs++;
      if (task.run(this)) {
        this.queue.push(task);
      }
      if (head > 4096) {
        this.queue = this.queue.slice(head);
        head = 0;
      }
    }
    return this.acc + this.runs;
  }
}

function scheduling(rng) {
  const s = new Scheduler();
  for (let i = 0; i < 3000; i++) {
    const kind = rng.below(3);
    const work = 5 + rng.below(20);
    s.add(kind === 0 ? new ComputeTask(i, work) : kind === 1 ? new SpawnTask(i, work) : new IdleTask(i, work));
  }
  return s.drain();
}

var BENCH = {
  name: "oo",
  run: function () {
    let out = "";
    for (let round = 0; round < 4; round++) {
      const rng = new Random(42 + round);
      out = expressions(rng) + ":" + particles(rng) + ":" + scheduling(rng);
    }
    return out;
  },
};
