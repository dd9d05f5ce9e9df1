# The R references of the conformance table: irr, psych, epiR, vcd, R's stats, and
# DescTools' StuartMaxwellTest (evaluated alone from its source file, see below).
#
#   Rscript oracles.R cases.json out.json [path/to/DescTools/R/Tests.r]
#
# cases.json: the table's inputs (a list of cases, inputs.py); out.json: for each case id, a
# list of references {source, call, values, tolerance}, as oracles_python.py writes them.
# Numbers are printed with 15 significant digits (jsonlite's maximum); NA, NaN and
# infinities are null (undefined).  Packages: Debian's r-cran-psych, r-cran-epir,
# r-cran-vcd, r-cran-jsonlite; irr from CRAN (it is not in Debian; README.md).

Sys.setenv(TZ = "UTC")  # else epiR's start-up asks timedatectl, absent in containers
suppressPackageStartupMessages({
  library(jsonlite)
  library(irr)
  library(psych)
  library(vcd)
  library(epiR)
})

args <- commandArgs(trailingOnly = TRUE)
cases <- fromJSON(args[1], simplifyVector = FALSE)
out_path <- args[2]
desctools_src <- if (length(args) >= 3) args[3] else ""

FULL <- list(abs = 1e-12, rel = 1e-9)

versions <- sapply(c("irr", "psych", "epiR", "vcd"), function(p) as.character(packageVersion(p)))

# DescTools is not in Debian (it is large and compiled); its StuartMaxwellTest is plain R,
# so it is parsed out of DescTools' R/Tests.r and evaluated alone.
StuartMaxwellTest <- NULL
if (nzchar(desctools_src) && file.exists(desctools_src)) {
  for (e in parse(desctools_src, keep.source = FALSE)) {
    if (is.call(e) && identical(e[[1]], as.name("<-")) &&
        identical(e[[2]], as.name("StuartMaxwellTest"))) {
      StuartMaxwellTest <- eval(e[[3]])
    }
  }
}

num <- function(x) {
  # NA and NaN -> null (undefined); an infinity -> "inf" / "-inf" (JSON has none)
  x <- suppressWarnings(as.numeric(x))
  out <- lapply(x, function(v) {
    if (is.na(v)) NA else if (is.infinite(v)) (if (v > 0) "inf" else "-inf") else v
  })
  if (length(out) == 1) out[[1]] else out
}

ref <- function(source, call, values, tolerance = FULL) {
  list(source = source, call = call, values = lapply(values, num), tolerance = tolerance)
}

failed <- function(source, call, err) {
  list(source = source, call = call, values = setNames(list(), character(0)),
       error = conditionMessage(err))
}

matrix_of <- function(m) {
  do.call(rbind, lapply(m, function(row) as.numeric(unlist(row))))
}

ratings_of <- function(inp) {
  # units x raters; null -> NA.  A count table becomes ratings unit by unit, padded with NA.
  if (!is.null(inp$ratings)) {
    rows <- lapply(inp$ratings, function(row)
      sapply(row, function(v) if (is.null(v)) NA_real_ else as.numeric(v)))
    return(do.call(rbind, rows))
  }
  cats <- as.numeric(unlist(inp$categories))
  rows <- lapply(inp$table, function(r) rep(cats, times = as.numeric(unlist(r))))
  width <- max(sapply(rows, length))
  do.call(rbind, lapply(rows, function(r) c(r, rep(NA_real_, width - length(r)))))
}

pairs_of <- function(M) {
  K <- nrow(M)
  y1 <- c(); y2 <- c()
  for (i in 1:K) for (j in 1:K) {
    y1 <- c(y1, rep(i, M[i, j])); y2 <- c(y2, rep(j, M[i, j]))
  }
  cbind(y1, y2)
}

agreement_weights <- function(spec, K) {
  if (is.character(spec)) {
    d <- abs(outer(1:K, 1:K, "-")) / (K - 1)
    return(switch(spec, identity = diag(K), linear = 1 - d, quadratic = 1 - d^2))
  }
  matrix_of(spec)
}

try_ref <- function(source, call, expr) {
  tryCatch(expr, error = function(err) failed(source, call, err))
}

quiet <- function(expr) suppressWarnings(suppressMessages(expr))

# --------------------------------------------------------------------------- two raters
cohen_kappa <- function(case) {
  M <- matrix_of(case$input$matrix)
  K <- nrow(M)
  w <- case$options$weights
  level <- if (is.null(case$options$confidence_level)) 0.95 else case$options$confidence_level
  out <- list()
  named <- is.character(w)
  if (named) {
    irr_w <- switch(w, identity = "unweighted", linear = "equal", quadratic = "squared")
    call <- sprintf("kappa2(pairs, weight = '%s')", irr_w)
    out[[length(out) + 1]] <- try_ref("irr", call, {
      r <- quiet(kappa2(pairs_of(M), weight = irr_w))
      ref("irr", call, list(value = r$value, z_null = r$statistic))
    })
  }
  W <- agreement_weights(w, K)
  call <- "Kappa(table, weights = <agreement matrix>); confint(k, level = level)"
  out[[length(out) + 1]] <- try_ref("vcd", call, {
    k <- quiet(Kappa(M, weights = W))
    part <- if (is.character(w) && w == "identity") "Unweighted" else "Weighted"
    ci <- quiet(confint(k, level = level))[part, ]
    ref("vcd", call, list(value = k[[part]][["value"]], se = k[[part]][["ASE"]],
                          ci_low = ci[[1]], ci_high = ci[[2]]))
  })
  call <- "cohen.kappa(table, w = <agreement matrix>, alpha = 1 - level)"
  out[[length(out) + 1]] <- try_ref("psych", call, {
    k <- quiet(cohen.kappa(M, w = W, alpha = 1 - level))
    if (is.character(w) && w == "identity") {
      v <- list(value = k$kappa, se = sqrt(k$var.kappa), ci_low = k$confid[1, 1],
                ci_high = k$confid[1, 3])
    } else {
      v <- list(value = k$weighted.kappa, se = sqrt(k$var.weighted),
                ci_low = k$confid[2, 1], ci_high = k$confid[2, 3])
    }
    ref("psych", call, v)
  })
  if (is.character(w) && w == "identity") {
    call <- "epi.kappa(table, method = 'fleiss', conf.level = level)$kappa"
    out[[length(out) + 1]] <- try_ref("epiR", call, {
      k <- quiet(epi.kappa(M, method = "fleiss", conf.level = level))
      ref("epiR", call, list(value = k$kappa$est, se_null = k$kappa$se,
                             ci_low = k$kappa$lower, ci_high = k$kappa$upper))
    })
  }
  out
}

pabak <- function(case) {
  M <- matrix_of(case$input$matrix)
  call <- "epi.kappa(table)$pabak$est"
  list(try_ref("epiR", call, {
    k <- quiet(epi.kappa(M, method = "fleiss"))
    ref("epiR", call, list(value = k$pabak$est))
  }))
}

prevalence_bias_index <- function(case) {
  M <- matrix_of(case$input$matrix)
  call <- "epi.kappa(table)$pindex$est, $bindex$est"
  list(try_ref("epiR", call, {
    k <- quiet(epi.kappa(M, method = "fleiss"))
    ref("epiR", call, list(prevalence_index = k$pindex$est, bias_index = k$bindex$est))
  }))
}

mcc <- function(case) {
  M <- matrix_of(case$input$matrix)
  if (nrow(M) != 2) return(list())
  call <- "phi(table, digits = 15)"
  list(try_ref("psych", call, ref("psych", call, list(value = quiet(phi(M, digits = 15))))))
}

mcnemar <- function(case) {
  M <- matrix_of(case$input$matrix)
  o <- case$options
  if (isTRUE(o$exact)) {
    b <- M[1, 2]; c <- M[2, 1]
    call <- "binom.test(b, b + c, 0.5)"
    if (b + c == 0) return(list())
    return(list(try_ref("R", call, {
      t <- binom.test(b, b + c, 0.5)
      ref("R", call, list(pvalue = t$p.value))
    })))
  }
  call <- sprintf("mcnemar.test(table, correct = %s)", o$correction)
  list(try_ref("R", call, {
    t <- quiet(mcnemar.test(M, correct = isTRUE(o$correction)))
    ref("R", call, list(statistic = t$statistic, df = t$parameter, pvalue = t$p.value))
  }))
}

stuart_maxwell <- function(case) {
  M <- matrix_of(case$input$matrix)
  out <- list()
  call <- "stuart.maxwell.mh(table)"
  out[[1]] <- try_ref("irr", call, {
    t <- quiet(stuart.maxwell.mh(M))
    df <- as.numeric(sub("Chisq\\((.*)\\)", "\\1", t$stat.name))
    ref("irr", call, list(statistic = t$statistic, df = df, pvalue = t$p.value))
  })
  if (!is.null(StuartMaxwellTest)) {
    call <- "StuartMaxwellTest(table)"
    out[[2]] <- try_ref("DescTools", call, {
      t <- quiet(StuartMaxwellTest(M))
      ref("DescTools", call, list(statistic = t$statistic, df = t$parameter,
                                  pvalue = t$p.value))
    })
  }
  out
}

# --------------------------------------------------------------------------- many raters
fleiss_kappa <- function(case) {
  R <- ratings_of(case$input)
  if (anyNA(R) || !is.null(case$options$n_population)) return(list())
  call <- "kappam.fleiss(ratings)"
  list(try_ref("irr", call, {
    r <- quiet(kappam.fleiss(R))
    ref("irr", call, list(value = r$value, z_null = r$statistic))
  }))
}

category_fleiss_kappas <- function(case) {
  R <- ratings_of(case$input)
  cats <- as.numeric(unlist(case$input$categories))
  used <- cats %in% R
  call <- "kappam.fleiss(ratings, detail = TRUE)$detail (rounded to 3 decimals)"
  list(try_ref("irr", call, {
    d <- quiet(kappam.fleiss(R, detail = TRUE))$detail
    kap <- rep(NA_real_, length(cats)); z <- rep(NA_real_, length(cats))
    kap[used] <- d[, "Kappa"]; z[used] <- d[, "z"]
    ref("irr", call, list(kappa_by_category = kap, z_by_category = z),
        list(abs = 5e-4 + 1e-12, rel = 0))
  }))
}

krippendorff_alpha <- function(case) {
  R <- ratings_of(case$input)
  level <- case$options$level
  call <- sprintf("kripp.alpha(t(ratings), method = '%s')", level)
  list(try_ref("irr", call, {
    r <- quiet(kripp.alpha(t(R), method = level))
    ref("irr", call, list(value = r$value))
  }))
}

light_kappa <- function(case) {
  R <- ratings_of(case$input)
  call <- "kappam.light(ratings)"
  list(try_ref("irr", call, {
    r <- quiet(kappam.light(R))
    ref("irr", call, list(value = r$value))
  }))
}

# --------------------------------------------------------------------------- continuous
FORMS <- c("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")

icc_refs <- function(case) {
  R <- ratings_of(case$input)
  level <- case$options$confidence_level
  out <- list()
  call <- "ICC(ratings, lmer = FALSE, alpha = 1 - level)$results"
  out[[1]] <- try_ref("psych", call, {
    res <- quiet(ICC(R, lmer = FALSE, alpha = 1 - level))$results
    v <- list()
    for (i in seq_along(FORMS)) {
      f <- FORMS[i]
      v[[paste0(f, ".value")]] <- res$ICC[i]
      v[[paste0(f, ".F")]] <- res$F[i]
      v[[paste0(f, ".df1")]] <- res$df1[i]
      v[[paste0(f, ".df2")]] <- res$df2[i]
      v[[paste0(f, ".pvalue")]] <- res$p[i]
      v[[paste0(f, ".ci_low")]] <- res[["lower bound"]][i]
      v[[paste0(f, ".ci_high")]] <- res[["upper bound"]][i]
    }
    ref("psych", call, v)
  })
  specs <- list(ICC1 = c("oneway", "consistency", "single"),
                ICC2 = c("twoway", "agreement", "single"),
                ICC3 = c("twoway", "consistency", "single"),
                ICC1k = c("oneway", "consistency", "average"),
                ICC2k = c("twoway", "agreement", "average"),
                ICC3k = c("twoway", "consistency", "average"))
  call <- "icc(ratings, model, type, unit, conf.level = level) for the six forms"
  out[[2]] <- try_ref("irr", call, {
    v <- list()
    for (f in FORMS) {
      s <- specs[[f]]
      r <- quiet(icc(R, model = s[1], type = s[2], unit = s[3], conf.level = level))
      v[[paste0(f, ".value")]] <- r$value
      v[[paste0(f, ".F")]] <- r$Fvalue
      v[[paste0(f, ".df1")]] <- r$df1
      v[[paste0(f, ".df2")]] <- r$df2
      v[[paste0(f, ".pvalue")]] <- r$p.value
      v[[paste0(f, ".ci_low")]] <- r$lbound
      v[[paste0(f, ".ci_high")]] <- r$ubound
    }
    ref("irr", call, v)
  })
  out
}

lins_ccc <- function(case) {
  x <- as.numeric(unlist(case$input$x)); y <- as.numeric(unlist(case$input$y))
  level <- case$options$confidence_level
  call <- paste("epi.ccc(x, y, ci = 'z-transform', conf.level = level); scale_shift =",
                "1 / s.shift, location_shift = -l.shift (epiR's are y against x)")
  list(try_ref("epiR", call, {
    r <- quiet(epi.ccc(x, y, ci = "z-transform", conf.level = level))
    ref("epiR", call, list(value = r$rho.c$est, ci_low = r$rho.c$lower,
                           ci_high = r$rho.c$upper, accuracy = r$C.b,
                           scale_shift = 1 / r$s.shift, location_shift = -r$l.shift))
  }))
}

# --------------------------------------------------------------------------- issue 34
overall_ccc <- function(case) {
  X <- do.call(rbind, lapply(case$input$ratings, function(r) as.numeric(unlist(r))))
  level <- case$options$confidence_level
  out <- list()
  call <- "epi.occc(ratings): occc, oprec, oaccu (sd and cov with n - 1)"
  out[[1]] <- try_ref("epiR", call, {
    r <- quiet(epi.occc(as.data.frame(X)))
    ref("epiR", call, list(value = r$occc, precision = r$oprec, accuracy = r$oaccu))
  })
  if (ncol(X) == 2) {
    call2 <- "epi.ccc(x, y, ci = 'z-transform', conf.level = level) (two methods: Lin's CCC)"
    out[[2]] <- try_ref("epiR", call2, {
      r <- quiet(epi.ccc(X[, 1], X[, 2], ci = "z-transform", conf.level = level))
      ref("epiR", call2, list(value = r$rho.c$est, ci_low = r$rho.c$lower,
                             ci_high = r$rho.c$upper))
    })
  }
  out
}

bangdiwala_b <- function(case) {
  M <- matrix_of(case$input$matrix)
  K <- nrow(M)
  w <- case$options$weights
  weights <- if (identical(w, "identity")) 1 else if (identical(w, "linear")) {
    1 - (0:(K - 1)) / (K - 1)
  } else if (identical(w, "quadratic")) {
    1 - (0:(K - 1))^2 / (K - 1)^2
  } else as.numeric(unlist(w[[1]]))  # an agreement matrix by distance: its first row
  part <- if (identical(w, "identity")) "Bangdiwala" else "Bangdiwala_Weighted"
  call <- paste0("agreementplot(table, weights = w)$", part)
  list(try_ref("vcd", call, {
    grDevices::pdf(NULL)
    r <- agreementplot(M, weights = weights)
    grDevices::dev.off()
    ref("vcd", call, list(value = r[[part]]))
  }))
}

# --------------------------------------------------------------------------- the run
handlers <- list(cohen_kappa = cohen_kappa, pabak = pabak,
                 prevalence_bias_index = prevalence_bias_index, mcc = mcc,
                 mcnemar = mcnemar, stuart_maxwell = stuart_maxwell,
                 fleiss_kappa = fleiss_kappa, category_fleiss_kappas = category_fleiss_kappas,
                 krippendorff_alpha = krippendorff_alpha, light_kappa = light_kappa,
                 icc = icc_refs, lins_ccc = lins_ccc,
                 overall_ccc = overall_ccc, bangdiwala_b = bangdiwala_b)

# issue 34 (f34b): R's survey package and irr's test of Light's kappa (oracles_survey.R)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(here, "oracles_survey.R"))
handlers <- survey_handlers(handlers)

# the published data the table types in, checked against irr's copies
fl <- Filter(function(c) c$id == "fleiss_kappa/fleiss-1971", cases)[[1]]
mine <- matrix_of(fl$input$table)
data("diagnoses", package = "irr", envir = environment())
theirs <- t(apply(as.matrix(diagnoses), 1, function(r) table(factor(r, levels = levels(diagnoses[[1]])))))
stopifnot(all(mine == theirs))

result <- list()
for (case in cases) {
  h <- handlers[[case$coefficient]]
  if (is.null(h) || named_weights_case(case)) next  # Gwet's named weights: irrCAC only
  refs <- h(case)
  if (length(refs)) result[[case$id]] <- refs
}
meta <- list(R = R.version.string, packages = as.list(versions),
             DescTools = if (is.null(StuartMaxwellTest)) NULL else desctools_src)
writeLines(toJSON(list(meta = meta, references = result), auto_unbox = TRUE, digits = NA,
                  na = "null", null = "null", pretty = FALSE), out_path)
