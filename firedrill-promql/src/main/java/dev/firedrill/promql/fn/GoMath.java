package dev.firedrill.promql.fn;

/**
 * Go's {@code math} functions (as built for amd64) where Java's give other bits or are missing:
 * Go's log reads a subnormal's exponent field as is (ln(5e-324) is -709.09, not -744.44), its log2
 * and log10 go through that log, its asin and acos come from Cephes's atan (acos near 1 loses
 * digits Java keeps), its min and max let an infinity win over NaN, and Java has no inverse
 * hyperbolic functions.
 */
final class GoMath {

  private static final double INV_LN2 = 1.442695040888963407359924681001892137426645954152985934135;
  private static final double INV_LN10 =
      0.4342944819032518276511289189166050822943970058036665661144;
  private static final double LN2 = 0.693147180559945309417232121458176568;
  private static final double HALF_SQRT2 = 7.07106781186547524401e-01;
  private static final double LN2_HI = 6.93147180369123816490e-01;
  private static final double LN2_LO = 1.90821492927058770002e-10;
  private static final double[] LOG_ODD = {
    6.666666666666735130e-01,
    2.857142874366239149e-01,
    1.818357216161805012e-01,
    1.479819860511658591e-01
  };
  private static final double[] LOG_EVEN = {
    3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01
  };
  private static final double[] ATAN_P = {
    -8.750608600031904122785e-01,
    -1.615753718733365076637e+01,
    -7.500855792314704667340e+01,
    -1.228866684490136173410e+02,
    -6.485021904942025371773e+01
  };
  private static final double[] ATAN_Q = {
    2.485846490142306297962e+01,
    1.650270098316988542046e+02,
    4.328810604912902668951e+02,
    4.853903996359136964868e+02,
    1.945506571482613964425e+02
  };
  private static final double PI_2_EXTRA = 6.123233995736765886130e-17;
  private static final double TAN_3PI_8 = 2.41421356237309504880;
  private static final double NEAR_ZERO = 0x1p-28;
  private static final double LARGE = 0x1p28;

  private GoMath() {}

  static double max(double x, double y) {
    return x == Double.POSITIVE_INFINITY || y == Double.POSITIVE_INFINITY
        ? Double.POSITIVE_INFINITY
        : Math.max(x, y);
  }

  static double min(double x, double y) {
    return x == Double.NEGATIVE_INFINITY || y == Double.NEGATIVE_INFINITY
        ? Double.NEGATIVE_INFINITY
        : Math.min(x, y);
  }

  /**
   * fdlibm's reduction to a mantissa near 1 and its polynomial, without normalising subnormals
   * first.
   */
  static double log(double x) {
    long bits = Double.doubleToRawLongBits(x);
    if ((bits & Long.MAX_VALUE) == 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (bits < 0) {
      return Double.NaN;
    }
    if (bits >= Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)) {
      return x;
    }
    double f1 = Double.longBitsToDouble((bits & 0x000F_FFFF_FFFF_FFFFL) | 0x3FE0_0000_0000_0000L);
    double k = (int) ((bits >>> 52) & 0x7FF) - 0x3FE;
    if (f1 <= HALF_SQRT2) {
      k -= 1;
      f1 *= 2;
    }
    double f = f1 - 1;
    double s = f / (2 + f);
    double s2 = s * s;
    double s4 = s2 * s2;
    double t1 = s2 * (LOG_ODD[0] + s4 * (LOG_ODD[1] + s4 * (LOG_ODD[2] + s4 * LOG_ODD[3])));
    double t2 = s4 * (LOG_EVEN[0] + s4 * (LOG_EVEN[1] + s4 * LOG_EVEN[2]));
    double r = t1 + t2;
    double hfsq = 0.5 * f * f;
    return k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f);
  }

  static double log10(double x) {
    return log(x) * INV_LN10;
  }

  static double atan(double x) {
    if (x == 0) {
      return x;
    }
    return x > 0 ? positiveAtan(x) : -positiveAtan(-x);
  }

  static double asin(double x) {
    if (x == 0) {
      return x;
    }
    double a = x < 0 ? -x : x;
    if (a > 1) {
      return Double.NaN;
    }
    double root = Math.sqrt(1 - a * a);
    double r = a > 0.7 ? Math.PI / 2 - positiveAtan(root / a) : positiveAtan(a / root);
    return x < 0 ? -r : r;
  }

  static double acos(double x) {
    return Math.PI / 2 - asin(x);
  }

  /** Reduced to [0, 0.66], where the rational approximation holds. */
  private static double positiveAtan(double x) {
    if (x <= 0.66) {
      return reducedAtan(x);
    }
    if (x > TAN_3PI_8) {
      return Math.PI / 2 - reducedAtan(1 / x) + PI_2_EXTRA;
    }
    return Math.PI / 4 + reducedAtan((x - 1) / (x + 1)) + 0.5 * PI_2_EXTRA;
  }

  private static double reducedAtan(double x) {
    double z = x * x;
    z =
        z
            * ((((ATAN_P[0] * z + ATAN_P[1]) * z + ATAN_P[2]) * z + ATAN_P[3]) * z + ATAN_P[4])
            / (((((z + ATAN_Q[0]) * z + ATAN_Q[1]) * z + ATAN_Q[2]) * z + ATAN_Q[3]) * z
                + ATAN_Q[4]);
    return x * z + x;
  }

  /** Through the mantissa in [0.5, 1), so that powers of two come out exact. */
  static double log2(double x) {
    if (x == 0 || Double.isInfinite(x) || Double.isNaN(x)) {
      return log(x) * INV_LN2;
    }
    double f = x;
    int exp = 0;
    if (Math.abs(x) < Double.MIN_NORMAL) {
      f = x * 0x1p52;
      exp = -52;
    }
    long bits = Double.doubleToRawLongBits(f);
    exp += (int) ((bits >>> 52) & 0x7ff) - 1022;
    double frac = Double.longBitsToDouble((bits & ~(0x7ffL << 52)) | (1022L << 52));
    if (frac == 0.5) {
      return exp - 1;
    }
    return log(frac) * INV_LN2 + exp;
  }

  static double asinh(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    // Not Math.abs: Go keeps -0 as -0.
    double a = x < 0 ? -x : x;
    double r;
    if (a > LARGE) {
      r = log(a) + LN2;
    } else if (a > 2) {
      r = log(2 * a + 1 / (Math.sqrt(a * a + 1) + a));
    } else if (a < NEAR_ZERO) {
      r = a;
    } else {
      r = StrictMath.log1p(a + a * a / (1 + Math.sqrt(1 + a * a)));
    }
    return x < 0 ? -r : r;
  }

  static double acosh(double x) {
    if (x < 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return 0;
    }
    if (x >= LARGE) {
      return log(x) + LN2;
    }
    if (x > 2) {
      return log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
    }
    double t = x - 1;
    return StrictMath.log1p(t + Math.sqrt(2 * t + t * t));
  }

  static double atanh(double x) {
    if (x < -1 || x > 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == -1) {
      return Double.NEGATIVE_INFINITY;
    }
    double a = x < 0 ? -x : x;
    double r;
    if (a < NEAR_ZERO) {
      r = a;
    } else if (a < 0.5) {
      double twice = a + a;
      r = 0.5 * StrictMath.log1p(twice + twice * a / (1 - a));
    } else {
      r = 0.5 * StrictMath.log1p((a + a) / (1 - a));
    }
    return x < 0 ? -r : r;
  }
}
