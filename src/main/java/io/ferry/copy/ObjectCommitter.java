package io.ferry.copy;

/** Makes an object whose parts all arrived visible at its final name, or removes every trace of one that failed. */
public interface ObjectCommitter {
  void commit(PartTally object) throws Exception;

  void abort(PartTally object) throws Exception;
}
