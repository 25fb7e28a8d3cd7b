//! The home-screen icons: the page's `favicon.svg` (the red general's piece, written by
//! `crates/web/page/fonts/make_glyphs.py`) drawn as PNG files on the board's colour.
//!
//! The favicon is two circles and one path of absolute `M L H V Q Z` commands, which is all
//! this reads; anything else in it is refused, so a change to the generator is noticed here.

use anyhow::{anyhow, bail, Context, Result};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// The board's colour behind the piece (the page's light background).
const BACKGROUND: [u8; 3] = [0xef, 0xe7, 0xda];
/// The piece's diameter as a share of the icon: inside the 80 % circle a phone may cut out of
/// a "maskable" icon.
const PIECE_SHARE: f32 = 0.78;

/// One shape of the favicon.
enum Shape {
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
        fill: Option<Color>,
        stroke: Option<(Color, f32)>,
    },
    Path {
        dx: f32,
        dy: f32,
        d: String,
        fill: Option<Color>,
        stroke: Option<(Color, f32)>,
    },
}

/// The favicon drawn `size` pixels square, as PNG bytes.
pub fn png(svg: &str, size: u32) -> Result<Vec<u8>> {
    let (view, shapes) = read(svg)?;
    let mut pixmap = Pixmap::new(size, size).ok_or_else(|| anyhow!("no {size}px canvas"))?;
    pixmap.fill(Color::from_rgba8(
        BACKGROUND[0],
        BACKGROUND[1],
        BACKGROUND[2],
        0xff,
    ));
    let scale = size as f32 * PIECE_SHARE / view;
    let offset = size as f32 * (1.0 - PIECE_SHARE) / 2.0;
    let base = Transform::from_row(scale, 0.0, 0.0, scale, offset, offset);
    for shape in &shapes {
        let (path, transform, fill, stroke) = match shape {
            Shape::Circle {
                cx,
                cy,
                r,
                fill,
                stroke,
            } => {
                let path = PathBuilder::from_circle(*cx, *cy, *r)
                    .ok_or_else(|| anyhow!("a circle of radius {r}"))?;
                (path, base, fill, stroke)
            }
            Shape::Path {
                dx,
                dy,
                d,
                fill,
                stroke,
            } => (path(d)?, base.pre_translate(*dx, *dy), fill, stroke),
        };
        let mut paint = Paint {
            anti_alias: true,
            ..Paint::default()
        };
        if let Some(color) = fill {
            paint.set_color(*color);
            pixmap.fill_path(&path, &paint, FillRule::Winding, transform, None);
        }
        if let Some((color, width)) = stroke {
            paint.set_color(*color);
            let stroke = Stroke {
                width: *width,
                ..Stroke::default()
            };
            pixmap.stroke_path(&path, &paint, &stroke, transform, None);
        }
    }
    pixmap.encode_png().context("encoding the icon as PNG")
}

/// The view box's size and the shapes of the favicon.
fn read(svg: &str) -> Result<(f32, Vec<Shape>)> {
    let view = attribute(svg, "viewBox").context("the favicon has no viewBox")?;
    let view: Vec<f32> = numbers(&view)?;
    if view.len() != 4 || view[0] != 0.0 || view[1] != 0.0 || view[2] != view[3] {
        bail!("the favicon's viewBox is not a square from 0 0");
    }
    let mut shapes = Vec::new();
    // Every opening tag (closing ones hold nothing to draw).
    for element in svg.split('<').skip(1).filter(|e| !e.starts_with('/')) {
        let name = element.split([' ', '>', '/']).next().unwrap_or("");
        let fill = || paint_of(element, "fill");
        let stroke = || -> Result<Option<(Color, f32)>> {
            Ok(match paint_of(element, "stroke")? {
                Some(color) => {
                    let width = attribute(element, "stroke-width").unwrap_or_else(|| "1".into());
                    Some((color, width.parse().context("a stroke width")?))
                }
                None => None,
            })
        };
        match name {
            "svg" => {}
            "circle" => shapes.push(Shape::Circle {
                cx: number(element, "cx")?,
                cy: number(element, "cy")?,
                r: number(element, "r")?,
                fill: fill()?,
                stroke: stroke()?,
            }),
            "path" => {
                let (dx, dy) = match attribute(element, "transform") {
                    None => (0.0, 0.0),
                    Some(t) => {
                        let inner = t
                            .strip_prefix("translate(")
                            .and_then(|t| t.strip_suffix(')'))
                            .ok_or_else(|| anyhow!("a transform other than translate: {t}"))?;
                        match numbers(inner)?[..] {
                            [dx, dy] => (dx, dy),
                            _ => bail!("translate needs two numbers: {t}"),
                        }
                    }
                };
                shapes.push(Shape::Path {
                    dx,
                    dy,
                    d: attribute(element, "d").context("a path without d")?,
                    fill: fill()?,
                    stroke: stroke()?,
                });
            }
            other => bail!("the favicon has a <{other}>, which the icon maker does not draw"),
        }
    }
    Ok((view[2], shapes))
}

/// The value of `name="…"` in `element`.
fn attribute(element: &str, name: &str) -> Option<String> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = element[start..].find('"')? + start;
    Some(element[start..end].to_owned())
}

fn number(element: &str, name: &str) -> Result<f32> {
    attribute(element, name)
        .with_context(|| format!("no {name}"))?
        .parse()
        .with_context(|| format!("{name} is not a number"))
}

fn numbers(text: &str) -> Result<Vec<f32>> {
    text.split([' ', ','])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().with_context(|| format!("not a number: {t}")))
        .collect()
}

/// A `fill` or `stroke` colour (`#rrggbb`), or none.
fn paint_of(element: &str, name: &str) -> Result<Option<Color>> {
    match attribute(element, name).as_deref() {
        None | Some("none") => Ok(None),
        Some(hex) if hex.len() == 7 && hex.starts_with('#') => {
            let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16);
            Ok(Some(Color::from_rgba8(
                channel(1)?,
                channel(3)?,
                channel(5)?,
                255,
            )))
        }
        Some(other) => bail!("a colour the icon maker does not read: {other}"),
    }
}

/// A path of absolute `M L H V Q Z` commands (a command's numbers may repeat it, as SVG allows).
fn path(d: &str) -> Result<tiny_skia::Path> {
    // Separate letters from numbers, then read command by command.
    let mut tokens = Vec::new();
    let mut number = String::new();
    for c in d.chars() {
        let starts_number = c == '-' && !number.is_empty() && !number.ends_with('e');
        if c.is_ascii_alphabetic() || c == ' ' || c == ',' || starts_number {
            if !number.is_empty() {
                tokens.push(std::mem::take(&mut number));
            }
            if c.is_ascii_alphabetic() {
                tokens.push(c.to_string());
            } else if c == '-' {
                number.push(c);
            }
        } else {
            number.push(c);
        }
    }
    if !number.is_empty() {
        tokens.push(number);
    }
    let mut builder = PathBuilder::new();
    let (mut x, mut y) = (0.0f32, 0.0f32);
    let mut command = ' ';
    let mut i = 0;
    let take = |i: &mut usize| -> Result<f32> {
        let token = tokens
            .get(*i)
            .ok_or_else(|| anyhow!("the path ends in a command"))?;
        *i += 1;
        token
            .parse()
            .with_context(|| format!("not a number in the path: {token}"))
    };
    while i < tokens.len() {
        if let Some(c) = tokens[i].chars().next().filter(char::is_ascii_alphabetic) {
            command = c;
            i += 1;
            if command == 'Z' {
                builder.close();
                continue;
            }
        }
        match command {
            'M' => {
                (x, y) = (take(&mut i)?, take(&mut i)?);
                builder.move_to(x, y);
                // Numbers after a move are lines.
                command = 'L';
            }
            'L' => {
                (x, y) = (take(&mut i)?, take(&mut i)?);
                builder.line_to(x, y);
            }
            'H' => {
                x = take(&mut i)?;
                builder.line_to(x, y);
            }
            'V' => {
                y = take(&mut i)?;
                builder.line_to(x, y);
            }
            'Q' => {
                let (cx, cy) = (take(&mut i)?, take(&mut i)?);
                (x, y) = (take(&mut i)?, take(&mut i)?);
                builder.quad_to(cx, cy, x, y);
            }
            other => bail!("a path command the icon maker does not read: {other}"),
        }
    }
    builder.finish().ok_or_else(|| anyhow!("an empty path"))
}
