package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.plan.Decision;
import io.ferry.store.Destination;
import io.ferry.store.HardLinkTarget;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import scala.Tuple2;

/**
 * {@code source.hard-links = keep}: a directory's names of one file are copied once. The objects to copy or held are
 * grouped by inode; within a group, names are told apart by the source itself (one device and inode on the executor
 * that plans them, so files of two filesystems that share an inode number stay apart); of each file's names the first
 * by path is copied, and after the commit each other name to write is made a hard link to its copy.
 */
public final class HardLinks {
  private HardLinks() {}

  /** {@code name} to be made another name of {@code first}'s copy. */
  public record Link(StoreObject first, StoreObject name) implements Serializable {}

  /** One object of the plan: copied, or linked. */
  public record Named(StoreObject copy, Link link) implements Serializable {}

  /** The decisions to copy, or held, planned: each file copied once, its other names to link. */
  public static JavaRDD<Named> plan(JavaRDD<Decision> decisions, CopySettings settings, int partitions) {
    JavaPairRDD<String, Decision> byFile = decisions.filter(d -> d.kind() == Decision.Kind.COPY || d.kind() == Decision.Kind.UNCHANGED)
        .mapToPair(d -> new Tuple2<>(fileKey(d.object()), d));
    return byFile.groupByKey(partitions).mapPartitions(new Group(settings));
  }

  /** The inode a file's listing gives ("ino=..."); a key of its own for an object without one. */
  public static String fileKey(StoreObject o) {
    return o.version().startsWith("ino=") ? o.version() : "\0" + o.relativeKey();
  }

  /** Each group of one inode parted into files by the source, each file's first name copied and the others linked. */
  public static final class Group implements FlatMapFunction<Iterator<Tuple2<String, Iterable<Decision>>>, Named> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;

    Group(CopySettings settings) {
      this.settings = settings;
    }

    @Override
    public Iterator<Named> call(Iterator<Tuple2<String, Iterable<Decision>>> groups) throws IOException {
      RangeReader source = ExecutorContext.source(settings).reader();
      List<Named> out = new ArrayList<>();
      while (groups.hasNext()) {
        List<Decision> names = new ArrayList<>();
        groups.next()._2().forEach(names::add);
        names.sort(Comparator.comparing(d -> d.object().relativeKey()));
        List<List<Decision>> files = new ArrayList<>();
        for (Decision d : names) {
          List<Decision> file = null;
          for (List<Decision> f : files) {
            if (source.sameFile(f.get(0).object(), d.object())) {
              file = f;
              break;
            }
          }
          if (file == null) files.add(file = new ArrayList<>());
          file.add(d);
        }
        for (List<Decision> file : files) {
          Decision first = file.get(0);
          if (first.kind() == Decision.Kind.COPY) out.add(new Named(first.object(), null));
          for (Decision other : file.subList(1, file.size())) {
            if (other.kind() == Decision.Kind.COPY) out.add(new Named(null, new Link(first.object(), other.object())));
          }
        }
      }
      return out.iterator();
    }
  }

  /** After the commit: each link made, unless its file's first name failed (then it fails too, and a rerun links it). */
  public static JavaRDD<ObjectResult> link(JavaRDD<Link> links, JavaRDD<ObjectResult> committed, CopySettings settings) {
    Set<String> failed = Set.copyOf(committed.filter(o -> o.status() == ObjectResult.Status.FAILED).map(o -> o.object().relativeKey())
        .collect());
    return links.mapPartitions(new LinkFunction(settings, failed));
  }

  public static final class LinkFunction implements FlatMapFunction<Iterator<Link>, ObjectResult> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final Set<String> failed;

    LinkFunction(CopySettings settings, Set<String> failed) {
      this.settings = settings;
      this.failed = failed;
    }

    @Override
    public Iterator<ObjectResult> call(Iterator<Link> links) throws IOException {
      Destination destination = ExecutorContext.destination(settings);
      Optional<HardLinkTarget> linking = destination.hardLinks();
      List<ObjectResult> out = new ArrayList<>();
      links.forEachRemaining(l -> {
        String at = destination.location(l.name());
        if (failed.contains(l.first().relativeKey())) {
          out.add(ObjectResult.failed(l.name(), at, 0, 0, "not linked: " + l.first().relativeKey() + ", another name of its file, was"
              + " not copied"));
          return;
        }
        try {
          ExecutorContext.retrier(settings).run(() -> linking.orElseThrow(() -> new StoreFailure(StoreFailure.Kind.FATAL,
              "the destination " + settings.destination().describe() + " makes no hard links")).hardLink(l.first(), l.name()));
          out.add(ObjectResult.row(l.name(), at, ObjectResult.Status.COPIED, "", "hard-link"));
        } catch (Exception e) {
          out.add(ObjectResult.failed(l.name(), at, 0, 0, "not linked to " + l.first().relativeKey() + ": " + Failures.describe(e)));
        }
      });
      destination.flush(); // the folders renamed into, once
      return out.iterator();
    }
  }
}
