package io.ferry.copy;

import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.Objects;

/**
 * A task of the plan as the copy receives it: with the upload its object was opened as, when that object is written
 * in parts (a task of a split object holds that one part); otherwise each object of the task is written whole.
 */
public record Assignment(CopyTask task, Upload upload) implements Serializable {
  public Assignment {
    Objects.requireNonNull(task, "task is null");
    if (upload != null && (task.ranges().size() != 1 || !task.ranges().get(0).object().equals(upload.object()))) {
      throw new IllegalArgumentException("task " + task.id() + " is not the one part of " + upload.object().key());
    }
  }

  /** A task whose objects are written whole. */
  public static Assignment whole(CopyTask task) {
    return new Assignment(task, null);
  }

  /** The upload a range of this task is written to. */
  public Upload uploadOf(RangeTask range) {
    return upload != null ? upload : Upload.whole(range.object());
  }
}
