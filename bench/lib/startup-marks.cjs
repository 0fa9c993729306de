// Loaded with `node --require` into a spawned stdio host: notes when each
// phase of its start ends, as milliseconds since the process began
// (performance.now()), and writes them as JSON to BENCH_MARKS at exit:
//   preload      Node's own start, up to the first user code
//   modules      the main module and everything it imports loaded
//   typeorm      DataSource.initialize() begun and ended (the driver, the
//                connection, the entity metadata), the migrations within it
//   firstAnswer  the first write to stdout (the first protocol line)
// What lies between `modules` and `typeorm`, and between `typeorm` and
// `firstAnswer`, is Nest's bootstrap (the injector, the modules' init, the
// app's setup and the HTTP adapter's init) and the host's own start.
'use strict';
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const marks = { preload: performance.now() };
const cpuAt = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function hookTypeorm(typeorm) {
  const proto = typeorm.DataSource.prototype;
  const wrap = (name, start, end) => {
    const original = proto[name];
    proto[name] = async function (...args) {
      marks[start] ??= performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        marks[end] ??= performance.now();
      }
    };
  };
  wrap('initialize', 'typeormStart', 'typeormEnd');
  wrap('runMigrations', 'migrationsStart', 'migrationsEnd');
}

// TypeORM is hooked when the host loads it, not before: a host that loads
// the app after its first answer must not load it earlier for the marks.
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (isMain) {
    try {
      return load.apply(this, arguments);
    } finally {
      marks.modules = performance.now();
    }
  }
  const loaded = load.apply(this, arguments);
  if (request === 'typeorm' && marks.typeormLoaded === undefined) {
    marks.typeormLoaded = performance.now();
    hookTypeorm(loaded);
  }
  return loaded;
};

const write = process.stdout.write;
process.stdout.write = function (...args) {
  if (marks.firstAnswer === undefined) {
    marks.firstAnswer = performance.now();
    marks.firstAnswerCpu = cpuAt();
  }
  return write.apply(this, args);
};

process.on('exit', () => {
  if (process.env.BENCH_MARKS)
    writeFileSync(process.env.BENCH_MARKS, JSON.stringify(marks));
});
