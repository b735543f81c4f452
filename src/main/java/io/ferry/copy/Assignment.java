package io.ferry.copy;

import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.Objects;

/**
 * A task of the plan as the copy receives it: with the upload its object was opened as, when that object is written
 * in parts (a task of a split object holds that one part), and the source's checksum of that object, which its parts'
 * digests are kept for (null when none); otherwise each object of the task is written whole.
 */
public record Assignment(CopyTask task, Upload upload, Checksum expected) implements Serializable {
  public Assignment {
    Objects.requireNonNull(task, "task is null");
    if (upload != null && (task.ranges().size() != 1 || !task.ranges().get(0).object().equals(upload.object()))) {
      throw new IllegalArgumentException("task " + task.id() + " is not the one part of " + upload.object().key());
    }
  }

  /** A task whose objects are written whole. */
  public static Assignment whole(CopyTask task) {
    return new Assignment(task, null, null);
  }

  /** The one part of a split object, written into {@code upload}. */
  public static Assignment part(CopyTask task, Upload upload, Checksum expected) {
    return new Assignment(task, upload, expected);
  }

  /** The upload a range of this task is written to. */
  public Upload uploadOf(RangeTask range) {
    return upload != null ? upload : Upload.whole(range.object());
  }
}
