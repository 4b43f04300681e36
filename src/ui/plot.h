// A plot as an ImGui widget: axes with labelled ticks (linear "nice" steps of 1, 2 or 5 times
// a power of ten, log axes by decades), axis titles, light gridlines, a legend, dashed
// reference lines, lines, points with labels, bars, segments between points, and a readout of the
// nearest point under the pointer. Each plot reports its axes (ticks, titles, ranges) and its
// rectangle in UiContext::plots, which the page's layout() returns, so tests can check them.
#pragma once

#include "ui/ui_context.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace attn::ui {

struct PlotSeries {
  std::string label;          // legend text; empty = not in the legend
  std::vector<double> x, y;
  ImU32 color = IM_COL32(86, 180, 233, 255);
  bool line = true;           // joined by a line
  bool points = false;        // a marker at each point
  bool square = false;        // square markers instead of round ones
  bool dashed = false;        // the line dashed (a reference curve such as y = d_k)
  bool bars = false;          // a bar from y = 0 to each point (a categorical axis's row of values)
  std::vector<std::string> point_labels;  // text beside each point (optional)
};

struct PlotSegment {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ImU32 color = IM_COL32(160, 160, 160, 255);
  float thickness = 1.0f;     // in pixels at DPR 1
};

struct PlotReference {
  bool vertical = true;       // x = value, or y = value
  double value = 0;
  std::string label;
};

struct PlotSpec {
  std::string id;             // ImGui id and the name in UiContext::plots
  std::string x_title, y_title;
  bool log_x = false, log_y = false;
  std::vector<PlotSeries> series;
  std::vector<PlotSegment> segments;   // drawn under the series
  std::vector<PlotReference> references;
  // Categorical x axis: ticks at 0, 1, ... labelled with these (thinned when they crowd).
  std::vector<std::string> x_categories;
  bool equal_aspect = false;  // one unit is as long on both axes (the query-key plane)
  bool include_zero_y = false;
  // Fixed ranges (lo, hi) where hi > lo; else the data's. A curve that grows step by step keeps
  // its axes from the first frame (training: steps 0 to the budget, accuracy 0 to 1).
  double x_range[2] = {0, 0}, y_range[2] = {0, 0};
};

// A bar chart over named categories: one series of bars (category i at x = i), y from 0.
PlotSpec category_bars(std::string id, std::string x_title, std::string y_title, std::vector<std::string> categories,
                       const std::vector<double>& values);

// Draws the plot into `size` (the widget's box, axes and legend included). Returns the index
// of the point under the pointer as series * 1'000'000 + point, or -1.
int plot_widget(UiContext& ctx, const PlotSpec& spec, ImVec2 size);

// The ticks of [lo, hi]: at least 3 values (nice steps), or the decades (and 2 and 5 times
// them when fewer than 3 decades show) for a log axis.
std::vector<double> plot_ticks(double lo, double hi, bool log_axis);

// A tick's text: "0.5", "12", "1e-06" (log), "2k".
std::string tick_text(double v, bool log_axis);

}  // namespace attn::ui
