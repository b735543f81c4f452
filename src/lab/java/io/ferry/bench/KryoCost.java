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
 * Whether Spark's Kryo ({@link FerryKryo} for records) would cut what persisting the ranges costs against Java
 * serialization: CPU per 1,000 rows written and read back through each serializer's stream, the rows of
 * {@link DatasetCost}, checked equal after the round trip.
 *   FERRY_JIT=c1 ferry_lab_java io.ferry.bench.KryoCost [rows] [rounds]
 */
public final class KryoCost {
  private KryoCost() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<RangeResult> rows = DatasetCost.flatRows(n);
    SerializerInstance java = new JavaSerializer(new SparkConf()).newInstance();
    SerializerInstance kryo = new KryoSerializer(new SparkConf().set("spark.kryo.registrator", FerryKryo.class.getName())).newInstance();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < rounds; r++) {
      for (String name : new String[] {"java", "kryo"}) {
        SerializerInstance s = name.equals("java") ? java : kryo;
        long t0 = cpu.getCurrentThreadCpuTime();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SerializationStream out = s.serializeStream(bytes);
        for (RangeResult row : rows) out.writeObject(row, ClassTag$.MODULE$.apply(RangeResult.class));
        out.close();
        long t1 = cpu.getCurrentThreadCpuTime();
        DeserializationStream in = s.deserializeStream(new ByteArrayInputStream(bytes.toByteArray()));
        for (int i = 0; i < n; i++) {
          Object o = in.readObject(ClassTag$.MODULE$.apply(RangeResult.class));
          if (r == 0 && !o.equals(rows.get(i))) throw new AssertionError(name + " row " + i + ": " + o);
        }
        in.close();
        long t2 = cpu.getCurrentThreadCpuTime();
        System.out.printf(Locale.ROOT, "%s round %d: %,d bytes; write %.1f, read %.1f CPU-ms per 1,000 rows%n", name, r, bytes.size(),
            (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n);
      }
    }
  }
}
