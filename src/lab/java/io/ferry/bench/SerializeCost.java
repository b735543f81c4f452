package io.ferry.bench;

import io.ferry.copy.RangeResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.DeserializationStream;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag$;

/**
 * The CPU of storing and reading a persisted block of ranges as Spark does ({@code MEMORY_AND_DISK_SER}: its
 * serializer's stream): Java serialization with {@code spark.serializer.objectStreamReset} at {@code reset} (Spark's
 * default 100), and Kryo with {@link FerryKryo} for records; each row is checked equal after the first round trip.
 *   FERRY_JIT=c1 ferry_lab_java io.ferry.bench.SerializeCost [rows] [rounds] [reset]
 */
public final class SerializeCost {
  private SerializeCost() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String reset = args.length > 2 ? args[2] : "100";
    List<RangeResult> rows = DatasetCost.flatRows(n); // the datasets bench's rows
    SerializerInstance java = new JavaSerializer(new SparkConf().set("spark.serializer.objectStreamReset", reset)).newInstance();
    SerializerInstance kryo = new KryoSerializer(new SparkConf().set("spark.kryo.registrator", FerryKryo.class.getName())).newInstance();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < rounds; r++) {
      for (String name : List.of("java", "kryo")) {
        SerializerInstance serializer = name.equals("java") ? java : kryo;
        long t0 = cpu.getCurrentThreadCpuTime();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SerializationStream out = serializer.serializeStream(bytes);
        for (RangeResult row : rows) out.writeObject(row, ClassTag$.MODULE$.apply(RangeResult.class));
        out.close();
        long t1 = cpu.getCurrentThreadCpuTime();
        DeserializationStream in = serializer.deserializeStream(new ByteArrayInputStream(bytes.toByteArray()));
        for (int i = 0; i < n; i++) {
          Object row = in.readObject(ClassTag$.MODULE$.apply(RangeResult.class));
          if (r == 0 && !row.equals(rows.get(i))) throw new AssertionError(name + ": row " + i + " came back as " + row);
        }
        in.close();
        long t2 = cpu.getCurrentThreadCpuTime();
        System.out.printf(Locale.ROOT, "%s (reset %s) round %d: %,d bytes; write %.1f, read %.1f CPU-ms per 1,000 rows%n", name, reset, r,
            bytes.size(), (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n);
      }
    }
  }
}
